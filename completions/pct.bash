# bash completion for pct (libpct's command-line tool).
# Commands, options, sets and implementations are read from pct itself
# (--help, --version), so the completion follows the installed version.

_pct_commands()
{
    "$1" --help 2>/dev/null | awk '/^Commands:/ { in_list = 1; next }
        in_list && /^$/ { exit }
        in_list { print $1 }'
}

_pct()
{
    local cur prev words cword
    _init_completion || return

    local pct=${words[0]} command='' i
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
        --set | --safe | --unsafe | --keep | --impl | --policy | --encoded-* | \
            --format | --field | --query | --threads | --chunk-size)
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
        COMPREPLY=($(compgen -W "$("$pct" --help 2>/dev/null |
            awk '/^Sets/ { in_list = 1; next } in_list && /^  e\.g\./ { exit }
                in_list { print }')" -- "$cur"))
        return
        ;;
    --impl)
        COMPREPLY=($(compgen -W "$("$pct" --version 2>/dev/null |
            sed -n 's/.*(available: \(.*\))/\1/p' | tr -d ,)" -- "$cur"))
        return
        ;;
    --policy)
        COMPREPLY=($(compgen -W 'default nginx envoy apache' -- "$cur"))
        return
        ;;
    --encoded-slash | --encoded-backslash | --encoded-control | --encoded-percent)
        COMPREPLY=($(compgen -W 'keep decode reject' -- "$cur"))
        return
        ;;
    --format)
        COMPREPLY=($(compgen -W 'combined common w3c auto' -- "$cur"))
        return
        ;;
    --query)
        COMPREPLY=($(compgen -W 'form plain keep' -- "$cur"))
        return
        ;;
    --safe | --unsafe | --keep | --field | --threads | --chunk-size)
        return
        ;;
    esac

    if [[ -z $command ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W '--help --version' -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$(_pct_commands "$pct")" -- "$cur"))
        fi
    elif [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$("$pct" "$command" --help 2>/dev/null |
            grep -oE -- '--[a-z0-9-]+' | sort -u)" -- "$cur"))
    elif [[ $command == logs ]]; then
        _filedir
    fi
} &&
    complete -F _pct pct
