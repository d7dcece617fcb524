#!/bin/bash
# Data lookup (src/base/datadir.h): a binary reads the data beside it only in a
# build tree, decided by the marker the Makefile writes; an installed copy
# of the same binary does not; BRISK_DATADIR overrides both.
source tests/lib.sh
unset BRISK_DATADIR BRISK_LAB_MODELS
D=$(t_tmpdir)
mkdir -p "$D/profiles" "$D/home" "$D/over/profiles"
cp "$BRISK" "$D/brisk"
# a lab model and a shipped profile only this copy's data has
{ cat profiles/lab-models.ini
  printf '\n[datadir-beside]\ndescription = beside the binary\nrpm = 0\nread_mb_s = 10\nwrite_mb_s = 10\n'; } >"$D/profiles/lab-models.ini"
cp profiles/quick.profile "$D/profiles/datadir-beside.profile"
{ cat profiles/lab-models.ini
  printf '\n[datadir-override]\ndescription = from BRISK_DATADIR\nrpm = 0\nread_mb_s = 10\nwrite_mb_s = 10\n'; } >"$D/over/lab-models.ini"
cp profiles/quick.profile "$D/over/profiles/datadir-override.profile"

sees() { # $1 = what: "models" or "profiles"; prints the test names it lists
  if [ "$1" = models ]; then HOME=$D/home "$D/brisk" lab models 2>&1
  else HOME=$D/home XDG_CONFIG_HOME=$D/home "$D/brisk" profile list 2>&1; fi |
    grep -o 'datadir-[a-z]*' | sort -u | tr '\n' ' '
}

# an installed binary (no marker): the files beside it are not read
t_eq no-marker-models "$(sees models)" ""
t_eq no-marker-profiles "$(sees profiles)" ""

# the marker makes it a build tree
echo marker >"$D/.brisk-build-tree"
t_eq marker-models "$(sees models)" "datadir-beside "
t_eq marker-profiles "$(sees profiles)" "datadir-beside "

# BRISK_DATADIR wins over the build tree
t_eq override-models "$(BRISK_DATADIR=$D/over sees models)" "datadir-override "
t_eq override-profiles "$(BRISK_DATADIR=$D/over sees profiles)" "datadir-override "

# a marker that is a symlink, or owned by someone other than the binary's
# owner, does not count
rm "$D/.brisk-build-tree"
ln -s /etc/hostname "$D/.brisk-build-tree"
t_eq symlink-marker "$(sees models)" ""
rm "$D/.brisk-build-tree"
if is_root; then
  echo marker >"$D/.brisk-build-tree"
  chown 65534 "$D/.brisk-build-tree"
  t_eq foreign-marker "$(sees models)" ""
else
  t_skip foreign-marker "needs root to give the marker another owner"
fi

# the build tree itself has the marker (make wrote it with ./brisk)
[ -f .brisk-build-tree ]; t_eq build-tree-marked $? 0
