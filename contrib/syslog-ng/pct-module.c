/* pct-module.c - the syslog-ng module "pct": libpct and its log engine in
 * syslog-ng (3.38): the parser pct-access-log-parser() and the template
 * functions $(pct-decode), $(pct-encode), $(pct-normalize-path). */
#include "cfg-parser.h"
#include "plugin-types.h"
#include "plugin.h"
#include "template/simple-function.h"

extern CfgParser pct_access_log_parser_parser;
TEMPLATE_FUNCTION_DECLARE(tf_pct_decode);
TEMPLATE_FUNCTION_DECLARE(tf_pct_encode);
TEMPLATE_FUNCTION_DECLARE(tf_pct_normalize_path);

static Plugin pct_plugins[] = {
    {
        .type = LL_CONTEXT_PARSER,
        .name = "pct-access-log-parser",
        .parser = &pct_access_log_parser_parser,
    },
    TEMPLATE_FUNCTION_PLUGIN(tf_pct_decode, "pct-decode"),
    TEMPLATE_FUNCTION_PLUGIN(tf_pct_encode, "pct-encode"),
    TEMPLATE_FUNCTION_PLUGIN(tf_pct_normalize_path, "pct-normalize-path"),
};

/* The two symbols syslog-ng looks up in a module (the rest is hidden). */
__attribute__((visibility("default"))) gboolean pct_module_init(PluginContext *context,
                                                                CfgArgs *args);
__attribute__((visibility("default"))) extern const ModuleInfo module_info;

gboolean pct_module_init(PluginContext *context, CfgArgs *args)
{
    plugin_register(context, pct_plugins, G_N_ELEMENTS(pct_plugins));
    return TRUE;
}

const ModuleInfo module_info = {
    .canonical_name = "pct",
    .version = SYSLOG_NG_VERSION,
    .description = "libpct: access-log parsing and percent-encoding (pct-access-log-parser(), "
                   "$(pct-decode), $(pct-encode), $(pct-normalize-path))",
    .core_revision = SYSLOG_NG_SOURCE_REVISION,
    .plugins = pct_plugins,
    .plugins_len = G_N_ELEMENTS(pct_plugins),
};
