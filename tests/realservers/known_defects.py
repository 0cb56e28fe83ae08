r"""Checks that fail today because of a defect listed in issue 24, by
(log, mode, check) -> the defects. Such a check is reported as XFAIL and
counted as skipped, and only while every difference it finds is put down to
a defect of its entry (checks.py puts a difference down to a defect only
when pct's value is exactly what that defect makes of the line). A listed
check that passes is an XPASS, and a listed defect no longer seen in its
check is reported too: both count as failures, so a fix removes its entries
here.

Numbers are the items of issue 24's list:
  1  haproxy `option httplog clf` lines unparsed (with the syslog prefix; and
     --format haproxy does not read clf lines at all)
  2  haproxy's #XX escapes (#22 for '"', #09, #7B, non-ASCII) not undone
  3  haproxy writes '\' literally; pct reads \x22, \\ and \" in it as escapes
  4  Apache/lighttpd/varnishncsa \t \n \r \b \v \f not undone
  5  runs of spaces or tabs in the request line end up in the path
  6  a lower-case protocol (http/1.1) becomes part of the path
  7  --log-format with nginx's escape=json format: JSON escapes not undone,
     and its line output is not JSON (decoded controls written as \xHH)
  8  line output of JSON lines: C1 controls / DEL written as \xHH (not JSON)
  9  JSON lines: an empty request_uri wins over request
  10 JSON lines: a string "-" becomes null
  11 a request field that is not a request line (haproxy's <BADREQ>, TLS
     bytes, "hello world", lighttpd's "GET  HTTP/1.1", varnish's "- http://
     localhost HTTP/1.0", squid's "error:invalid-request"): its text given as
     the path, the writers disagree, or no "request" text said
  12 squid: a NUL ends a cut record, the next one runs on
  13 records the server cut (haproxy at 1,024 bytes, nginx/Apache 414
     lines, varnish's 255-byte URLs) unparsed or not flagged "truncated"
Letters are defects the real servers showed that issue 24 does not list
(all fixed by the work on issue 24; checks.py still names them should one
come back):
  A  --log-format '"%m %U%q %H"' (varnishncsa -F): \" \\ \xhh in %U%q not undone
  B  squid's built-in `combined` logformat (raw '"' and '\' in its quoted
     fields) read as Apache's combined: lines unparsed, escapes undone
  C  line output of nginx escape=json lines: bytes that are not UTF-8 copied
  D  auto mode read varnishncsa -F lines as haproxy, fields wrong
  E  --log-format refused HAProxy log-format strings
  F  haproxy lines with an RFC 5424 syslog prefix unparsed
  G  haproxy `option tcplog` lines unparsed
"""

KNOWN = {}
