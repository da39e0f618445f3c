#!/bin/sh
# chassis_control program for ipmi_sim: keeps power and boot device in files
# under $CHASSIS_STATE_DIR and logs every change there.
D=${CHASSIS_STATE_DIR:?}; op=$1; shift
case $op in
get) for k in "$@"; do printf '%s:%s\n' "$k" "$(cat "$D/$k" 2>/dev/null || { [ "$k" = power ] && echo 0 || echo none; })"; done ;;
set) while [ $# -ge 2 ]; do echo "$2" > "$D/$1"; echo "set $1=$2" >> "$D/log"; shift 2; done ;;
check) exit 0 ;;
esac
