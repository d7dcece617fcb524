# zsh -f tests/helpers/zsh_complete.zsh OUT COMPDIR LINE
# What a zsh user's TAB after LINE gets: an interactive zsh in a pseudo-
# terminal (zsh/zpty) with compinit and COMPDIR first in $fpath; TAB is
# pressed at the end of LINE and every match compadd adds (after matching
# what was typed) is appended to OUT, one a line, then a line DONE.  Exit
# 1 when no DONE came within 10 s.  Used by tests/cli/completion_*.sh.
zmodload zsh/zpty || exit 2
out=$1 compdir=$2 line=$3
init=$out.init
# the shell in the pty reads this: no prompt, the completion system, and
# compadd wrapped to log its matches (queries with -O/-A/-D pass through)
cat >$init <<INIT
PS1=''
fpath=(${(q)compdir} \$fpath)
autoload -U compinit
compinit -u -D
compadd() {
  if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then builtin compadd "\$@"; return; fi
  local -a __m
  builtin compadd -O __m "\$@"
  (( \$#__m )) && print -rl -- "\${__m[@]}" >>${(q)out}
  builtin compadd "\$@"
}
__brisk_test_done() { print -r -- DONE >>${(q)out}; }
comppostfuncs=(__brisk_test_done)
zstyle ':completion:*' menu no
bindkey '^I' complete-word
INIT
zpty z zsh -f -i
zpty -w z "source ${(q)init}"
zpty -w -n z "$line"$'\t'
integer i
for (( i = 0; i < 100; i++ )); do
  [[ -f $out ]] && grep -qx DONE $out && break
  sleep 0.1
done
zpty -d z
rm -f $init
(( i < 100 ))
