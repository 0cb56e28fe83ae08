# shellcheck shell=bash disable=SC2207
# bash completion for pct (libpct's command-line tool).
# Commands, options, sets and implementations are read from pct itself
# (--help, --version), so the completion follows the installed version.

_pct_commands()
{
    "$1" --help 2>/dev/null | awk '/^Commands:/ { in_list = 1; next }
        in_list && /^$/ { exit }
        in_list { print $1 }'
}

# COMPREPLY: the words of $1 that start with the current word.
_pct_reply()
{
    COMPREPLY=($(compgen -W "$1" -- "$cur"))
}

_pct()
{
    local cur prev words cword
    _init_completion || return

    local pct=${words[0]} command='' i
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
        --set | --safe | --unsafe | --keep | --impl | --policy | --encoded-* | \
            --format | --field | --query | --threads | --chunk-size | --max-line | \
            --log-format | --json-key | --fields | --byte-range)
            ((i++)) ;; # the option's value
        -*) ;;
        *)
            command=${words[i]}
            break
            ;;
        esac
    done

    case $prev in
    --set)
        _pct_reply "$("$pct" --help 2>/dev/null |
            awk '/^Sets/ { in_list = 1; next } in_list && /^  e\.g\./ { exit }
                in_list { print }')"
        return
        ;;
    --impl)
        _pct_reply "$("$pct" --version 2>/dev/null |
            sed -n 's/.*(available: \(.*\))/\1/p' | tr -d ,)"
        return
        ;;
    --policy)
        _pct_reply 'default nginx envoy apache traefik strict'
        return
        ;;
    --encoded-slash | --encoded-backslash | --encoded-nul | --encoded-semicolon | \
        --encoded-percent | --encoded-control)
        _pct_reply 'keep decode reject'
        return
        ;;
    --encoded-question | --encoded-hash)
        _pct_reply 'keep reject'
        return
        ;;
    --format) # the formats pct logs knows, from its registry
        _pct_reply "auto $("$pct" logs --list-formats 2>/dev/null | cut -f1)"
        return
        ;;
    --query)
        _pct_reply 'form plain keep'
        return
        ;;
    --safe | --unsafe | --keep | --field | --threads | --chunk-size | --max-line | \
        --log-format | --json-key | --fields | --byte-range)
        return
        ;;
    esac

    if [[ -z $command ]]; then
        if [[ $cur == -* ]]; then
            _pct_reply '--help --version'
        else
            _pct_reply "$(_pct_commands "$pct")"
        fi
    elif [[ $cur == -* ]]; then
        _pct_reply "$("$pct" "$command" --help 2>/dev/null |
            grep -oE -- '--[a-z0-9-]+' | sort -u)"
    elif [[ $command == logs ]]; then
        _filedir
    fi
} &&
    complete -F _pct pct
