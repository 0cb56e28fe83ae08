"""Every log the step checks: which server wrote it, how to find and unescape
its request field (logparse), and how `pct logs` is told its format."""
import re
import shlex

import servers

LIGHTTPD_DEFAULT = '%h %V %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i"'
VARNISH_DEFAULT = '%h %l %u %t "%r" %s %b "%{Referer}i" "%{User-agent}i"'


class LogSpec:
    """key: 'server/log'; file: the name fire.py collects it under; shape,
    esc: logparse's reading; modes: {mode name: pct arguments}, 'auto' first
    where the format is one auto-detection is meant to know."""

    def __init__(self, key, file, shape, esc, modes, nul_records=False, notice=None, custom=False):
        self.key, self.file, self.shape, self.esc = key, file, shape, esc
        self.modes = modes
        self.nul_records = nul_records  # squid: a NUL ends a record
        self.notice = notice  # lines of the server's own that are not requests
        # a format of its own: in auto mode a line may be unparsed, but a
        # line that is parsed must be parsed right
        self.custom = custom
        # haproxy's tcplog has no request: no paths, truncated, targets checks
        self.has_request = shape != "haproxy_tcplog"
        # Referer and User-Agent: where the harness reads them (logparse.headers)
        self.headers = (shape in ("clf", "varnish_custom", "json") and esc in ("nginx", "apache", "json")
                        or shape in ("haproxy_httplog", "squid_combined"))


def _lf(s):
    return ["--log-format", s]


# the options as log-format strings, their "strict equivalents" in HAProxy
# 2.6's configuration manual (8.2.2 - 8.2.4)
HAPROXY_HTTPLOG = ("%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %CC %CS %tsc "
                   "%ac/%fc/%bc/%sc/%rc %sq/%bq %hr %hs %{+Q}r")
HAPROXY_CLF = ('%{+Q}o %{-Q}ci - - [%trg] %r %ST %B "" "" %cp %ms %ft %b %s %TR %Tw %Tc %Tr %Ta %tsc '
               "%ac %fc %bc %sc %rc %sq %bq %CC %CS %hrl %hsl")
HAPROXY_TCPLOG = "%ci:%cp [%t] %ft %b/%s %Tw/%Tc/%Tt %B %ts %ac/%fc/%bc/%sc/%rc %sq/%bq"
HAPROXY_NOTICE = re.compile(rb"(^|[:-] +)Proxy \S+ (started|stopped|paused|resumed)")

SPECS = [
    LogSpec("nginx/combined", "nginx-combined.log", "clf", "nginx",
            {"auto": [], "log-format": _lf(servers.NGINX_COMBINED)}),
    LogSpec("nginx/escape=default", "nginx-escdefault.log", "clf", "nginx",
            {"auto": [], "log-format": _lf(servers.NGINX_DEFAULT)}),
    LogSpec("nginx/escape=json", "nginx-json.log", "json", "json",
            {"auto": [], "log-format": _lf(servers.NGINX_JSON), "format-json": ["--format", "json"]}),
    LogSpec("apache2/combined", "apache2-combined.log", "clf", "apache",
            {"auto": [], "log-format": _lf(servers.APACHE_COMBINED)}),
    LogSpec("apache2/custom", "apache2-custom.log", "clf", "apache",
            {"auto": [], "log-format": _lf(servers.APACHE_CUSTOM)}),
    LogSpec("haproxy/httplog-rsyslog", "haproxy-httplog-rsyslog.log", "haproxy_httplog", "haproxy",
            {"auto": [], "format-haproxy": ["--format", "haproxy"], "log-format": _lf(HAPROXY_HTTPLOG)},
            notice=HAPROXY_NOTICE),
    LogSpec("haproxy/httplog-rsyslog3339", "haproxy-httplog-rsyslog3339.log", "haproxy_httplog", "haproxy",
            {"auto": [], "format-haproxy": ["--format", "haproxy"]}, notice=HAPROXY_NOTICE),
    LogSpec("haproxy/httplog-rsyslog5424", "haproxy-httplog-rsyslog5424.log", "haproxy_httplog", "haproxy",
            {"auto": [], "format-haproxy": ["--format", "haproxy"]}, notice=HAPROXY_NOTICE),
    LogSpec("haproxy/httplog-stdout", "haproxy-httplog-stdout.log", "haproxy_httplog", "haproxy",
            {"auto": [], "format-haproxy": ["--format", "haproxy"], "log-format": _lf(HAPROXY_HTTPLOG)},
            notice=HAPROXY_NOTICE),
    LogSpec("haproxy/clf-rsyslog", "haproxy-clf-rsyslog.log", "haproxy_clf", "haproxy",
            {"auto": [], "format-haproxy_clf": ["--format", "haproxy_clf"], "log-format": _lf(HAPROXY_CLF)},
            notice=HAPROXY_NOTICE),
    LogSpec("haproxy/clf-stdout", "haproxy-clf-stdout.log", "haproxy_clf", "haproxy",
            {"auto": [], "format-haproxy_clf": ["--format", "haproxy_clf"], "log-format": _lf(HAPROXY_CLF)},
            notice=HAPROXY_NOTICE),
    # option tcplog: connections, no request in the line
    LogSpec("haproxy/tcplog-rsyslog", "haproxy-tcplog-rsyslog.log", "haproxy_tcplog", "haproxy",
            {"auto": [], "format-haproxy_tcp": ["--format", "haproxy_tcp"], "log-format": _lf(HAPROXY_TCPLOG)},
            notice=HAPROXY_NOTICE),
    LogSpec("haproxy/tcplog-stdout", "haproxy-tcplog-stdout.log", "haproxy_tcplog", "haproxy",
            {"auto": [], "format-haproxy_tcp": ["--format", "haproxy_tcp"], "log-format": _lf(HAPROXY_TCPLOG)},
            notice=HAPROXY_NOTICE),
    LogSpec("squid/native", "squid-native.log", "squid_native", "squid",
            {"auto": [], "format-squid": ["--format", "squid"]}, nul_records=True),
    LogSpec("squid/combined", "squid-combined.log", "squid_combined", "squid",
            {"auto": [], "format-squid_combined": ["--format", "squid_combined"]}, nul_records=True),
    LogSpec("lighttpd/default", "lighttpd-default.log", "clf", "apache",
            {"auto": [], "log-format": _lf(LIGHTTPD_DEFAULT)}),
    LogSpec("varnish/default", "varnish-default.log", "clf", "apache",
            {"auto": [], "log-format": _lf(VARNISH_DEFAULT)}),
    # varnishncsa -F: a format of its own, which auto-detection cannot know
    LogSpec("varnish/custom", "varnish-custom.log", "varnish_custom", "apache",
            # as the command line that wrote it: which says the URLs are
            # varnishd's, cut at 254 bytes (a bare format string does not)
            {"auto": [], "log-format": _lf("varnishncsa -F " + shlex.quote(servers.VARNISH_CUSTOM))},
            custom=True),
]
