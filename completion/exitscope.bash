# SPDX-License-Identifier: GPL-2.0-only
# exitscope.bash - bash completion for exitscope(1).
#
# Everything offered comes from the exitscope binary being completed, so it
# never drifts from the program: the commands from `exitscope --help`, each
# command's options and what their arguments are from its option table
# (`exitscope help --options CMD`: "--name ARG" a line), the probe names
# from `exitscope run --list`, the suite names from `exitscope check --help`.
# Installed as $(PREFIX)/share/bash-completion/completions/exitscope; works
# with or without the bash-completion package loaded.

# The program being completed: the word typed, if it runs, else exitscope.
_exitscope_prog()
{
	local p=${COMP_WORDS[0]}

	p=${p/#\~/$HOME}
	if [[ $p == */* && -x $p ]] || type -P -- "$p" >/dev/null 2>&1; then
		printf '%s\n' "$p"
	else
		printf 'exitscope\n'
	fi
}

# The names listed under "HEADING:" in a --help text (until a blank line).
_exitscope_section()
{
	awk -v h="$1:" '$0 == h { on = 1; next } on && /^$/ { exit } on && /^  [a-z]/ { print $1 }'
}

# Files, through bash-completion's _filedir when it is loaded.
_exitscope_files()
{
	if declare -F _filedir >/dev/null; then
		_filedir "$@"
	else
		local IFS=$'\n'
		if [[ $1 == -d ]]; then
			COMPREPLY=($(compgen -d -- "$cur"))
		else
			COMPREPLY=($(compgen -f -- "$cur"))
		fi
	fi
}

_exitscope()
{
	local cur prev prog cmd opts i
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	prog=$(_exitscope_prog)

	# The command: the first word after the program that is not an option.
	for ((i = 1; i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} != -* ]]; then
			cmd=${COMP_WORDS[i]}
			break
		fi
	done
	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W '--help --version' -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$("$prog" --help 2>/dev/null |
				_exitscope_section commands) help version" -- "$cur"))
		fi
		return 0
	fi
	if [[ $cmd == help ]]; then
		COMPREPLY=($(compgen -W "$("$prog" --help 2>/dev/null |
			_exitscope_section commands)" -- "$cur"))
		return 0
	fi

	opts=$("$prog" help --options "$cmd" 2>/dev/null)

	# Option arguments: an option that takes one is listed "--opt METAVAR"
	# ("--opt [METAVAR]" when it is optional); a file or directory is
	# completed as such, anything else (a number, a mask, a list) is left
	# to the user.
	case $prev in
	--kvm-dev)
		local IFS=$'\n'
		COMPREPLY=($(compgen -f -- "${cur:-/dev/}"))
		return 0 ;;
	--cpuid-profile)
		COMPREPLY=($(compgen -W 'host minimal' -- "$cur"))
		return 0 ;;
	esac
	if [[ $prev == -* ]]; then
		local meta
		meta=$(printf '%s\n' "$opts" | awk -v o="$prev" '$1 == o { print $2; exit }')
		meta=${meta#\[}
		meta=${meta%\]}
		case $meta in
		'') ;;
		DIR) _exitscope_files -d; return 0 ;;
		FILE|PATH|LIST) _exitscope_files; return 0 ;;
		*) return 0 ;;
		esac
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(printf '%s\n' "$opts" | awk '{ print $1 }')" -- "$cur"))
		return 0
	fi

	case $cmd in
	run)
		COMPREPLY=($(compgen -W "$("$prog" run --list 2>/dev/null |
			awk 'NR > 1 && /^[^ ]/ { print $1 }')" -- "$cur")) ;;
	check)
		COMPREPLY=($(compgen -W "$("$prog" check --help 2>/dev/null |
			_exitscope_section suites)" -- "$cur")) ;;
	compare|report|walk|merge)
		_exitscope_files '@(json)' ;;
	esac
	return 0
}

complete -F _exitscope exitscope
