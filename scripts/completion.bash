# bash completion for flare (installed by 'make install' as
# $(PREFIX)/share/bash-completion/completions/flare). Subcommands come from
# 'flare --list-cmds', options from 'flare CMD --list-opts' (the option tables themselves),
# event names from 'flare list --raw-dump'.
_flare()
{
	local cur prev cmd words
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	cmd=${COMP_WORDS[1]}
	if [ "$COMP_CWORD" -eq 1 ]; then
		words=$("${COMP_WORDS[0]}" --list-cmds 2>/dev/null)
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
	fi
	case $prev in
	-e | --event)
		words=$("${COMP_WORDS[0]}" list --raw-dump 2>/dev/null)
		# tracepoint names hold ':', which bash splits words at
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		__ltrim_colon_completions "$cur" 2>/dev/null
		return
		;;
	-i | --input | -o | --output)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	esac
	if [[ $cur == --* ]]; then
		words=$("${COMP_WORDS[0]}" "$cmd" --list-opts 2>/dev/null)
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o default -F _flare flare
