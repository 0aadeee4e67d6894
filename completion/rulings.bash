# bash completion for rulings(1)                          -*- shell-script -*-
#
# The commands, their options and the document formats are read from
# `rulings --help` and `rulings COMMAND --help`, so they follow the
# program installed; tags are read from the database (`rulings tags`).

_rulings_db_args()
{
	local i
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		--db) printf '%s\n' --db "${words[i + 1]}"; return ;;
		--db=*) printf '%s\n' "${words[i]}"; return ;;
		esac
	done
}

_rulings()
{
	local cur prev words cword
	_init_completion -s || return

	local prog=${words[0]} cmd= i
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		--db) ((i++)) ;;
		-*) ;;
		*) cmd=${words[i]}; break ;;
		esac
	done

	case $prev in
	--db)
		_filedir
		return ;;
	-o | --output)
		_filedir
		return ;;
	--kind | -k)
		COMPREPLY=($(compgen -W 'faq errata rule glossary' -- "$cur"))
		return ;;
	--lang | -l)
		COMPREPLY=($(compgen -W 'en fr ru any' -- "$cur"))
		return ;;
	--format | -f | -F)
		local formats
		case $cmd in
		export) formats='txt md html json xml' ;;
		import | parse)
			formats=$("$prog" --help 2>/dev/null | awk '
				/^formats the importer/ { on = 1; next }
				on && /^  [a-z]/ { print $1 }
				on && /^$/ { on = 0 }') ;;
		search | changed) formats='text json ndjson' ;;
		*) formats='text json' ;;
		esac
		COMPREPLY=($(compgen -W "$formats" -- "$cur"))
		return ;;
	--tag | -t)
		local IFS=$'\n' db
		mapfile -t db < <(_rulings_db_args)
		COMPREPLY=($(compgen -W "$("$prog" "${db[@]}" tags 2>/dev/null)" \
			-- "$cur"))
		return ;;
	--game | -g | --category | -c | --document | -D | --since | -s | \
	--as-of | --limit | -n | --query | -q)
		return ;;
	esac

	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W '--db --help --version' -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$("$prog" --help 2>/dev/null | awk '
				/^commands:/ { on = 1; next }
				on && /^  [a-z]/ { print $1 }
				on && /^$/ { on = 0 }')" -- "$cur"))
		fi
		return
	fi

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$("$prog" "$cmd" --help 2>/dev/null |
			grep -oE -- '--[a-z][a-z-]*' | sort -u)" -- "$cur"))
		return
	fi
	case $cmd in
	import | parse) _filedir ;;
	esac
} &&
	complete -F _rulings rulings

# ex: filetype=sh
