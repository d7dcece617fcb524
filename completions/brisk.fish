# fish completion for brisk(1): every command and option, profile names,
# lab names, the keys of set/get and the schedulers the disks of a path
# offer.  Installed into fish's vendor_completions.d as brisk.fish.
#
# It only reads, as completions/brisk.bash: brisk runs with
# BRISK_RUNTIME_DIR at a directory that cannot exist (so the start-up
# recovery of killed sessions' journals, which writes as root, finds
# nothing), lab names are the state files of the runtime directory.
# Those names are file names anyone who can write the directories
# chooses: only names that pass brisk's rules are offered (fish never
# evaluates what a command substitution in `complete -a` prints, and
# escapes each candidate it inserts).

# brisk from $PATH, read-only, at most 3 s, no stderr
function __brisk_q
    set -l t
    command -q timeout; and set t timeout 3
    BRISK_RUNTIME_DIR=/proc/brisk-completion-none $t brisk $argv 2>/dev/null
end

# the options that take a value, per command (to tell positionals apart)
set -g __brisk_args_run -l --load -a --actions --exec --ls-files -i --idle-samples -n --samples \
    --idle-max --warmup -d --duration --interval --jitter --timeout --max-time --tick --load-dir --floor \
    --seed -j --json --csv --openmetrics --at -p --profile --fio --scale
set -g __brisk_args_compare -r --rounds -b --budget -n --samples --looks --margin --settle-max -l --load \
    -a --actions --exec --ls-files --warmup --interval --timeout --load-dir --floor -p --profile --fio \
    --scale --seed -j --json --csv --openmetrics --plot --save
set -g __brisk_args_tune --space --resume -b --budget -r --rounds -n --samples --margin --settle-max \
    -l --load -a --actions --exec --ls-files --warmup --load-window --interval --timeout --load-dir \
    --floor -p --profile --fio --scale --seed -j --json --csv --openmetrics --plot --save
set -g __brisk_args_report --by --baseline --seed -j --json --csv --openmetrics --plot \
    --save-profile
set -g __brisk_args_tui -l --load -a --actions --exec --ls-files -i --idle-samples --interval \
    --timeout --tick --load-dir --floor -n --iterations -d --duration --bench-redraw
set -g __brisk_args_set -d --device
set -g __brisk_args_get -d --device
set -g __brisk_args_export -F --format -m --match -d --device -o --output
set -g __brisk_args_profile -l --load -a --action -d --description -r --runtime -k --key \
    -o --output -s --scale -n --name --group

# __brisk_is CMD [VERB]: the command line is `brisk CMD [VERB] ...`
function __brisk_is
    set -l t (commandline -opc)
    test (count $t) -ge 2; and test "$t[2]" = "$argv[1]"; or return 1
    set -q argv[2]; or return 0
    test (count $t) -ge 3; and test "$t[3]" = "$argv[2]"
end

# __brisk_verb CMD: the command line is `brisk CMD` and a verb comes next
function __brisk_verb
    set -l t (commandline -opc)
    test (count $t) -eq 2; and test "$t[2]" = "$argv[1]"
end

# __brisk_pos CMD [OPTIONS-WITH-VALUE...]: the positionals before the cursor
function __brisk_pos
    set -l t (commandline -opc)
    set -l av __brisk_args_$argv[1]
    set -l args $$av
    set -l skip 0
    set -l dd 0
    for w in $t[3..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        if test $dd = 0; and string match -qr -- '^-.' $w
            if test "$w" = --
                set dd 1
            else if not string match -q -- '--*=*' $w; and contains -- $w $args
                set skip 1
            end
            continue
        end
        echo $w
    end
end

# __brisk_npos CMD N: N positionals are before the cursor
function __brisk_npos
    test (count (__brisk_pos $argv[1])) -eq $argv[2]
end

function __brisk_profiles
    __brisk_q profile list | awk '($2 == "user" || $2 == "system" || $2 == "shipped") &&
        $1 ~ /^[A-Za-z0-9_][A-Za-z0-9._-]*$/ {
        d = $0; sub(/^[^ ]+ +[^ ]+ +/, "", d); print $1 "\t" d }'
end

# __brisk_keys [SCHED...]: the keys (with SCHEDs, of every scope but the
# schedulers', and the iosched keys of the SCHEDs)
function __brisk_keys
    __brisk_q set --list-keys | awk -v s=" $argv " '
        $2 !~ /^iosched:/ || s ~ /^ *$/ || index(s, " " substr($2, 9) " ") {
        d = $0; sub(/^[^ ]+ +[^ ]+ +/, "", d); if (match(d, /  +/)) d = substr(d, RSTART + RLENGTH)
        print $1 "\t" d }'
end

# __brisk_devs: the -d/--device values on the line
function __brisk_devs
    set -l t (commandline -opc)
    for i in (seq 3 (count $t))
        if contains -- $t[$i] -d --device; and test $i -lt (count $t)
            echo $t[(math $i + 1)]
        else if string match -q -- '--device=*' $t[$i]
            string replace -- --device= '' $t[$i]
        end
    end
end

# __brisk_active TARGET [DEV...]: the schedulers the disks behind TARGET (or
# the DEVs) run now, as brisk get reads them
function __brisk_active
    set -l target $argv[1]
    test -n "$target"; or set target .
    set -l a
    for d in $argv[2..-1]
        set -a a -d $d
    end
    __brisk_q get $a $target scheduler | string replace -rf '^\S+ scheduler=' '' | sort -u
end

# __brisk_named: the schedulers the words on the line switch to
function __brisk_named
    for w in (commandline -opc)
        string replace -rf '^(?:.*,)?scheduler=([A-Za-z0-9_-]+).*$' '$1' -- $w
    end
end

# __brisk_get_keys: the keys of what the disks' schedulers have (get
# refuses another's)
function __brisk_get_keys
    set -l pos (__brisk_pos get)
    __brisk_keys (__brisk_active "$pos[1]" (__brisk_devs))
end

function __brisk_models
    __brisk_q lab models | awk 'NR > 1 && $2 ~ /^[0-9]+$/ {
        d = $0; sub(/.*[0-9.]+-[0-9.]+s +/, "", d); print $1 "\t" d }'
end

function __brisk_labs
    set -l dir /run/brisk
    set -q BRISK_RUNTIME_DIR; and test -n "$BRISK_RUNTIME_DIR"; and set dir $BRISK_RUNTIME_DIR
    for f in $dir/lab/*.state
        test -f $f; and string match -qr -- '/[A-Za-z0-9_-]+\.state$' $f
        and string replace -r '^.*/(.*)\.state$' '$1' -- $f
    end
end

function __brisk_blockdevs
    string replace -r '^.*/' '' -- /sys/class/block/*
end

# __brisk_sched_list TARGET [DEV...]: the schedulers every disk offers, of
# the DEVs when given, else of the leaves of `brisk devices TARGET --json`
function __brisk_sched_list
    set -l target $argv[1]
    test -n "$target"; or set target .
    set -l disks $argv[2..-1]
    if not set -q disks[1]
        set disks (__brisk_q devices $target --json | awk '
          /"leaves"[[:space:]]*:/ { on = 1; sub(/.*"leaves"[[:space:]]*:[[:space:]]*\[/, "") }
          on { line = $0; end = index(line, "]"); if (end) line = substr(line, 1, end - 1)
               while (match(line, /"[^"]*"/)) {
                 print substr(line, RSTART + 1, RLENGTH - 2); line = substr(line, RSTART + RLENGTH) }
               if (end) exit }')
    end
    set -l common
    set -l first 1
    for d in $disks
        set d (string replace -r '^/dev/' '' -- $d)
        set -l f /sys/class/block/$d/queue/scheduler
        test -r $f; or set f /sys/class/block/$d/../queue/scheduler # a partition
        test -r $f; or continue
        set -l offered (string split -n ' ' -- (string replace -a -r '[][]' '' -- (cat $f)))
        if test $first = 1
            set common $offered
            set first 0
        else
            set -l keep
            for s in $offered
                contains -- $s $common; and set -a keep $s
            end
            set common $keep
        end
    end
    printf '%s\n' $common
end

# __brisk_setting CMD: KEY= or KEY=VALUE for set and compare ARMs
function __brisk_setting
    set -l tok (commandline -ct)
    set -l pos (__brisk_pos $argv[1])
    set -l target .
    if test "$argv[1]" = set
        set -q pos[1]; and set target $pos[1]
    else if set -q pos[1]; and not string match -q -- '*=*' $pos[1]; and test -d $pos[1]
        set target $pos[1]
    end
    if string match -q -- '*=*' $tok
        set -l key (string split -m1 = -- $tok)[1]
        set -l vals
        switch $key
            case scheduler
                set -l devs
                test "$argv[1]" = set; and set devs (__brisk_devs)
                set vals (__brisk_sched_list $target $devs)
            case low_latency strict_guarantees front_merges
                set vals 0 1
            case rq_affinity nomerges
                set vals 0 1 2
        end
        for v in $vals
            echo $key=$v
        end
    else
        # the keys the disks' schedulers have now, and those of a
        # scheduler the line switches to
        set -l devs
        test "$argv[1]" = set; and set devs (__brisk_devs)
        __brisk_keys (__brisk_active $target $devs) (__brisk_named) |
            string replace -r '^([^\t]*)' '$1='
    end
end

# __brisk_list WORDS...: complete the last item of a comma list
function __brisk_list
    set -l tok (commandline -ct)
    set -l head (string replace -r '[^,]*$' '' -- $tok)
    printf "$head%s\n" $argv
end

set -l cmds run compare tune report tui devices set get restore profile export lab help
set -l loads seq-write seq-read rand-read rand-write fsync-heavy mixed rand-mixed
set -l actions '(__brisk_list exec ls ssh-like save)'

complete -c brisk -f
complete -c brisk -n "not __fish_seen_subcommand_from $cmds" -s h -l help -d 'show the commands'
complete -c brisk -n "not __fish_seen_subcommand_from $cmds" -s V -l version -d 'print the version'
complete -c brisk -n "not __fish_seen_subcommand_from $cmds" -a run -d 'measure how the machine feels while its disk is busy'
complete -c brisk -n "not __fish_seen_subcommand_from $cmds" -a compare -d 'compare settings side by side, with verdicts'
complete -c brisk -n "not __fish_seen_subcommand_from $cmds" -a tune -d 'search the settings that feel best, in a race'
complete -c brisk -n "not __fish_seen_subcommand_from $cmds" -a report -d 'pool results of many machines, recommend per disk class'
complete -c brisk -n "not __fish_seen_subcommand_from $cmds" -a tui -d 'the dashboard: watch, switch schedulers, compare live'
complete -c brisk -n "not __fish_seen_subcommand_from $cmds" -a devices -d 'show the storage stack behind a directory'
complete -c brisk -n "not __fish_seen_subcommand_from $cmds" -a set -d 'change scheduler/tunables (journaled)'
complete -c brisk -n "not __fish_seen_subcommand_from $cmds" -a get -d 'show scheduler/tunables'
complete -c brisk -n "not __fish_seen_subcommand_from $cmds" -a restore -d 'put back journaled original values'
complete -c brisk -n "not __fish_seen_subcommand_from $cmds" -a profile -d 'list, show, check, save profiles; import fio jobs'
complete -c brisk -n "not __fish_seen_subcommand_from $cmds" -a export -d 'write a profile as udev rules, tuned, sysctl.d, ...'
complete -c brisk -n "not __fish_seen_subcommand_from $cmds" -a lab -d 'an emulated slow disk to try schedulers on'
complete -c brisk -n "not __fish_seen_subcommand_from $cmds" -a help -d 'the options of one command'
complete -c brisk -n '__brisk_is help; and __brisk_npos help 0' -a 'run compare tune report tui devices set get restore profile export lab'

# -h/--help: every command
for c in run compare tune report tui devices set get restore export
    complete -c brisk -n "__brisk_is $c" -s h -l help -d 'show the options'
end

# devices
complete -c brisk -n '__brisk_is devices' -s a -l all -d 'list every block device'
complete -c brisk -n '__brisk_is devices' -s j -l json -d 'print JSON'
complete -c brisk -n '__brisk_is devices' -s J -d 'print JSON (as lsblk -J)'
complete -c brisk -n '__brisk_is devices; and __brisk_npos devices 0' -a '(__brisk_blockdevs)' -d 'block device'
complete -c brisk -n '__brisk_is devices; and __brisk_npos devices 0' -a '(__fish_complete_directories)'

# run, compare, tui: the options they share
for c in run compare tui tune
    complete -c brisk -n "__brisk_is $c" -s l -l load -x -a "$loads" -d 'a load (repeatable)'
    complete -c brisk -n "__brisk_is $c" -s a -l actions -x -a "$actions" -d 'the actions to time'
    complete -c brisk -n "__brisk_is $c" -l exec -x -a '(__fish_complete_command)' -d 'program the exec action starts'
    complete -c brisk -n "__brisk_is $c" -l ls-files -x -d 'files in the ls tree'
    complete -c brisk -n "__brisk_is $c" -l interval -x -d 'mean pause between samples'
    complete -c brisk -n "__brisk_is $c" -l timeout -x -d 'a sample past T is killed'
    complete -c brisk -n "__brisk_is $c" -l load-dir -x -a '(__fish_complete_directories)' -d 'the loads without a dir= of their own work in DIR'
    complete -c brisk -n "__brisk_is $c" -l floor -x -d 'free space writers leave'
    test $c = tune; or complete -c brisk -n "__brisk_is $c" -l drop-caches -d 'evict with /proc/sys/vm/drop_caches'
    complete -c brisk -n "__brisk_is $c" -l keep-warm -d 'count samples that were not cold'
    complete -c brisk -n "__brisk_is $c" -l no-breakdown -d 'do not measure where the time went'
    complete -c brisk -n "__brisk_is $c" -l allow-shared-dir -d 'as root, run even when others can write DIR'
end
for c in run compare tune
    complete -c brisk -n "__brisk_is $c" -s p -l profile -x -a '(__brisk_profiles; __fish_complete_suffix .profile)' -d 'the workload of a profile'
    complete -c brisk -n "__brisk_is $c" -l fio -r -F -d 'the workload of a fio job file'
    complete -c brisk -n "__brisk_is $c" -l scale -x -d 'shrink --fio/--profile sizes and delays'
    complete -c brisk -n "__brisk_is $c" -l seed -x -d 'seed for jitter, offsets, order'
    complete -c brisk -n "__brisk_is $c" -s j -l json -r -F -d 'figures and samples as JSON'
    complete -c brisk -n "__brisk_is $c" -l csv -r -F -d 'samples as CSV'
    complete -c brisk -n "__brisk_is $c" -l openmetrics -r -F -d 'key figures as OpenMetrics (node_exporter textfile)'
    complete -c brisk -n "__brisk_is $c" -l warmup -x -d 'warm-up at most T'
    complete -c brisk -n "__brisk_is $c" -s n -l samples -x -d 'samples per action'
    complete -c brisk -n "__brisk_is $c" -s q -l quiet -d 'no progress on stderr'
    complete -c brisk -n "__brisk_is $c" -l parse-only -d 'print each option given as --NAME[=VALUE] and exit'
end
for c in run tui
    complete -c brisk -n "__brisk_is $c" -s i -l idle-samples -x -d 'idle samples per action'
    complete -c brisk -n "__brisk_is $c" -l tick -x -d 'sampling period'
    complete -c brisk -n "__brisk_is $c; and __brisk_npos $c 0" -a '(__fish_complete_directories)'
end

# run
complete -c brisk -n '__brisk_is run' -l no-load -d 'idle baseline only'
complete -c brisk -n '__brisk_is run' -l idle-max -x -d 'idle phase at most T'
complete -c brisk -n '__brisk_is run' -s d -l duration -x -d 'loaded phase at most T'
complete -c brisk -n '__brisk_is run' -l jitter -x -d 'pause varies by +-PCT %'
complete -c brisk -n '__brisk_is run' -l max-time -x -d 'end the whole run after T'
complete -c brisk -n '__brisk_is run' -l at -x -d 'TIME:KEY=VALUE: change a setting during the run'
complete -c brisk -n '__brisk_is run' -l no-settings -d "do not apply the profile's settings"

# compare
complete -c brisk -n '__brisk_is compare' -l schedulers -d 'arms: current, then every other scheduler'
complete -c brisk -n '__brisk_is compare' -s r -l rounds -x -d 'exactly N rounds'
complete -c brisk -n '__brisk_is compare' -s b -l budget -x -d 'time for the whole comparison'
complete -c brisk -n '__brisk_is compare' -l looks -x -d 'analyses that may stop it early'
complete -c brisk -n '__brisk_is compare' -l margin -x -d 'equivalent within PCT % either way'
complete -c brisk -n '__brisk_is compare' -l no-racing -d 'every arm runs every round'
complete -c brisk -n '__brisk_is compare' -l settle-max -x -d 'wait at most T for dirty data to drain'
complete -c brisk -n '__brisk_is compare' -l steady-state -d "sample the load's steady state"
complete -c brisk -n '__brisk_is compare' -l load-window -x -d "measure the load over the first T of each arm-run's loaded phase"
complete -c brisk -n '__brisk_is compare' -l plot -r -F -d 'a picture: FILE.svg or FILE.png'
complete -c brisk -n '__brisk_is compare' -l save -x -d "save the recommended arm's settings as a profile"
complete -c brisk -n '__brisk_is compare' -l force -d '--save replaces an existing profile'
complete -c brisk -n '__brisk_is compare; and not string match -qr -- "^-" (commandline -ct)' -a 'current (__brisk_profiles)'
complete -c brisk -n '__brisk_is compare; and string match -qr -- "^[A-Za-z]" (commandline -ct)' -a '(__brisk_setting compare)'
complete -c brisk -n '__brisk_is compare; and __brisk_npos compare 0' -a '(__fish_complete_directories)'

# tune
complete -c brisk -n '__brisk_is tune' -l space -r -F -d 'the settings to try (INI)'
complete -c brisk -n '__brisk_is tune' -l list -d "print the space's arms and exit"
complete -c brisk -n '__brisk_is tune' -l resume -r -F -d 'continue the stopped tune whose --json is FILE'
complete -c brisk -n '__brisk_is tune' -s r -l rounds -x -d 'at most N rounds'
complete -c brisk -n '__brisk_is tune' -s b -l budget -x -d 'time for the whole tune'
complete -c brisk -n '__brisk_is tune' -l margin -x -d 'equivalent within PCT % either way'
complete -c brisk -n '__brisk_is tune' -l settle-max -x -d 'wait at most T for dirty data to drain'
complete -c brisk -n '__brisk_is tune' -l load-window -x -d "measure the load over the first T of each arm-run's loaded phase"
complete -c brisk -n '__brisk_is tune' -l plot -r -F -d 'a picture: FILE.svg or FILE.png'
complete -c brisk -n '__brisk_is tune' -l save -x -d "save the recommended arm's settings as a profile"
complete -c brisk -n '__brisk_is tune' -l force -d '--save replaces a profile, --json a file'
complete -c brisk -n '__brisk_is tune; and __brisk_npos tune 0' -a '(__fish_complete_directories)'

# report
complete -c brisk -n '__brisk_is report' -l by -x -a 'class model model,firmware machine kernel' -d 'group by'
complete -c brisk -n '__brisk_is report' -l baseline -x -a 'none mq-deadline kyber bfq' -d 'compare against ARM'
complete -c brisk -n '__brisk_is report' -l seed -x -d 'seed of the bootstrap'
complete -c brisk -n '__brisk_is report' -s j -l json -r -F -d 'the report as JSON'
complete -c brisk -n '__brisk_is report' -l csv -r -F -d 'one row per group, phase, action and setting'
complete -c brisk -n '__brisk_is report' -l openmetrics -r -F -d 'key figures as OpenMetrics (node_exporter textfile)'
complete -c brisk -n '__brisk_is report' -l plot -r -F -d 'a picture: FILE.svg or FILE.png'
complete -c brisk -n '__brisk_is report' -l save-profile -x -d 'the winner of each class as a profile'
complete -c brisk -n '__brisk_is report' -l force -d '--save-profile replaces a profile, saves values outside the default ranges'
complete -c brisk -n '__brisk_is report' -l trust-file-identity -d 'take the machine each file names, not its host folder'
complete -c brisk -n '__brisk_is report; and not string match -qr -- "^-" (commandline -ct)' -a '(__fish_complete_suffix .json; __fish_complete_directories)'

# tui
complete -c brisk -n '__brisk_is tui' -s n -l iterations -x -d 'quit after N redraw ticks'
complete -c brisk -n '__brisk_is tui' -s d -l duration -x -d 'quit after T'
complete -c brisk -n '__brisk_is tui' -l no-report -d 'print no report after the dashboard closes'
complete -c brisk -n '__brisk_is tui' -l bench-redraw -x -d 'time N redraws of the screen at the end'

# set, get
for c in set get
    complete -c brisk -n "__brisk_is $c" -s d -l device -x -a '(__brisk_blockdevs)' -d 'only this disk of the stack'
    complete -c brisk -n "__brisk_is $c; and __brisk_npos $c 0" -a '(__brisk_blockdevs)' -d 'block device'
    complete -c brisk -n "__brisk_is $c; and __brisk_npos $c 0" -a '(__fish_complete_directories)'
end
complete -c brisk -n '__brisk_is set' -l persist -d 'keep the change for this boot'
complete -c brisk -n '__brisk_is set' -l list-keys -d 'every key: scope, range, meaning'
complete -c brisk -n '__brisk_is set; and not __brisk_npos set 0' -a '(__brisk_setting set)'
complete -c brisk -n '__brisk_is get' -s j -l json -d 'the same keys as JSON, values typed'
complete -c brisk -n '__brisk_is get' -s J -d 'the same keys as JSON (as lsblk -J)'
complete -c brisk -n '__brisk_is get; and not __brisk_npos get 0' -a '(__brisk_get_keys)'

# restore
complete -c brisk -n '__brisk_is restore' -s n -l dry-run -d 'list what would be restored; change nothing'
complete -c brisk -n '__brisk_is restore' -s v -l verbose -d 'also list values that need no write'
complete -c brisk -n '__brisk_is restore' -s j -l json -d 'one JSON document instead'
complete -c brisk -n '__brisk_is restore' -s J -d 'one JSON document instead (as lsblk -J)'

# export
complete -c brisk -n '__brisk_is export' -s F -l format -x -a 'udev tuned sysctl sysfs.conf tmpfiles' -d 'the output format'
complete -c brisk -n '__brisk_is export' -s m -l match -x -a 'class this-device' -d 'match device classes or this device'
complete -c brisk -n '__brisk_is export' -s d -l device -x -a '(__brisk_blockdevs)' -d 'the device'
complete -c brisk -n '__brisk_is export' -s o -l output -r -F -d 'write FILE'
complete -c brisk -n '__brisk_is export' -s f -l force -d 'replace FILE if it exists'
complete -c brisk -n '__brisk_is export' -s a -l apply -d "set the profile's settings now"
complete -c brisk -n '__brisk_is export' -s n -l dry-run -d 'with --apply: print what would change'
complete -c brisk -n '__brisk_is export; and __brisk_npos export 0' -a '(__brisk_profiles)'
complete -c brisk -n '__brisk_is export; and __brisk_npos export 0' -a '(__fish_complete_suffix .profile)'

# profile
complete -c brisk -n '__brisk_verb profile' -s h -l help -d 'show the options'
complete -c brisk -n '__brisk_verb profile' -a list -d 'list profiles by name'
complete -c brisk -n '__brisk_verb profile' -a show -d 'print a profile as brisk reads it'
complete -c brisk -n '__brisk_verb profile' -a check -d 'validate profiles'
complete -c brisk -n '__brisk_verb profile' -a save -d 'capture the settings of a path and a workload'
complete -c brisk -n '__brisk_verb profile' -a import -d 'convert a fio job file into a profile'
for v in list show check save import
    complete -c brisk -n "__brisk_is profile $v" -s h -l help -d 'show the options'
end
complete -c brisk -n '__brisk_is profile show; and test (count (commandline -opc)) -eq 3' -a '(__brisk_profiles)'
complete -c brisk -n '__brisk_is profile show; and test (count (commandline -opc)) -eq 3' -a '(__fish_complete_suffix .profile)'
complete -c brisk -n '__brisk_is profile check' -a '(__fish_complete_suffix .profile)'
complete -c brisk -n '__brisk_is profile save' -s l -l load -x -a "$loads" -d 'a load (repeatable)'
complete -c brisk -n '__brisk_is profile save' -s a -l action -x -a "$actions" -d 'the actions to time'
complete -c brisk -n '__brisk_is profile save' -s d -l description -x -d "the profile's description"
complete -c brisk -n '__brisk_is profile save' -s r -l runtime -x -d "the loaded phase's length"
complete -c brisk -n '__brisk_is profile save' -s k -l key -x -a '(__brisk_keys)' -d 'record KEY whatever its value'
complete -c brisk -n '__brisk_is profile save' -l all -d 'record every value as it stands'
complete -c brisk -n '__brisk_is profile save; and test (count (__brisk_pos profile)) -eq 2' -a '(__fish_complete_directories)'
complete -c brisk -n '__brisk_is profile import' -s s -l scale -x -d 'shrink sizes and start delays'
complete -c brisk -n '__brisk_is profile import' -s n -l name -x -d "the profile's name"
complete -c brisk -n '__brisk_is profile import' -l env -d 'read $VAR and ${VAR} from the environment'
complete -c brisk -n '__brisk_is profile import' -l strict -d 'refuse every fio key brisk does not honour'
complete -c brisk -n '__brisk_is profile import' -l group -x -d 'import the Nth stonewall group'
complete -c brisk -n '__brisk_is profile import' -l list-keys -d 'print the table of fio keys'
complete -c brisk -n '__brisk_is profile import' -F
for v in save import
    complete -c brisk -n "__brisk_is profile $v" -s o -l output -r -F -d 'write FILE instead'
    complete -c brisk -n "__brisk_is profile $v" -s f -l force -d 'replace FILE or the saved profile'
end

# lab
complete -c brisk -n '__brisk_verb lab' -s h -l help -d 'show the options'
complete -c brisk -n '__brisk_verb lab' -a up -d 'make a lab disk'
complete -c brisk -n '__brisk_verb lab' -a down -d 'take lab disks apart'
complete -c brisk -n '__brisk_verb lab' -a status -d 'list lab disks and what of them exists'
complete -c brisk -n '__brisk_verb lab' -a models -d 'list the device models'
for v in up down status
    complete -c brisk -n "__brisk_is lab $v" -s h -l help -d 'show the options'
end
complete -c brisk -n '__brisk_is lab up' -s m -l model -x -a '(__brisk_models)' -d 'device model'
complete -c brisk -n '__brisk_is lab up' -s s -l size -x -d 'disk size, sparse'
complete -c brisk -n '__brisk_is lab up' -s n -l name -x -d 'lab name'
complete -c brisk -n '__brisk_is lab up' -s d -l dir -x -a '(__fish_complete_directories)' -d 'image and mount point'
complete -c brisk -n '__brisk_is lab up' -s D -l dirty-limit -x -d 'dirty page cache the disk may hold'
complete -c brisk -n '__brisk_is lab up' -s c -l calibrate -d 'time reads on the made disk'
complete -c brisk -n '__brisk_is lab up' -s q -l quiet -d 'no progress line while it calibrates'
complete -c brisk -n '__brisk_is lab down' -s a -l all -d 'every lab disk'
complete -c brisk -n '__brisk_is lab down' -a '(__brisk_labs)' -d 'lab disk'
