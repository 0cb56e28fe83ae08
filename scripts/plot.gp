# scripts/plot.gp - throughput vs record size, libpct vs peers vs memcpy.
#
#   gnuplot -e "datafile='build/bench/plot.dat'; outfile='docs/bench/throughput.png'; \
#               subtitle='AMD EPYC, gcc 12.2.0, 2026-11-23'" scripts/plot.gp
#
# datafile is written by bench/report.py: one block per panel (gnuplot index),
# a "# title" line, a header line (size, then one column per series), then
# one line per record size with GB/s of input ("?" = not measured).
if (!exists("datafile")) datafile = 'build/bench/plot.dat'
if (!exists("outfile")) outfile = 'docs/bench/throughput.png'
if (!exists("subtitle")) subtitle = ''

set terminal pngcairo size 1200,860 font ",10" noenhanced
set output outfile
set datafile missing "?"
set key autotitle columnheader
set logscale xy
set xtics ("24" 24, "48" 48, "96 B" 96, "1 KiB" 1024, "64 KiB" 65536, "1 MiB" 1048576)
set mxtics 1
set xrange [18:1.4e6]
set ylabel "GB/s of input"
set grid xtics ytics mytics lc rgb "#dddddd"
# The key sits in a band above the data (y up to 3000 GB/s is never reached).
set yrange [*:3000]
set key top left horizontal maxcols 3 font ",9" samplen 2 spacing 0.9 width -2

# The columns of bench/report.py's PLOT_SERIES: libpct avx512, avx2, scalar;
# curl, uriparser, glib; memcpy
set style line 1 lc rgb "#d62728" lw 2.5 pt 7 ps 1.0
set style line 2 lc rgb "#ff7f0e" lw 2.0 pt 5 ps 0.9
set style line 3 lc rgb "#ff9896" lw 1.5 pt 6 ps 0.8 dt 2
set style line 4 lc rgb "#1f77b4" lw 1.5 pt 5 ps 0.8
set style line 5 lc rgb "#2ca02c" lw 1.5 pt 9 ps 0.9
set style line 6 lc rgb "#9467bd" lw 1.5 pt 11 ps 0.9
set style line 7 lc rgb "#555555" lw 1.5 pt 1 ps 0.8 dt 3

# Panel titles, in the order of bench/report.py's PANELS.
array titles[4] = ["decode, paths (an escape every 20-40 bytes)", "decode, query strings", \
                   "decode, all-escaped UTF-8", "encode component set, query text"]
set multiplot layout 2,2 title "libpct throughput vs record size (median, higher is better)\n".subtitle
do for [p=0:3] {
    set title titles[p + 1]
    plot for [c=2:8] datafile index p using 1:c with linespoints ls (c - 1)
}
unset multiplot
