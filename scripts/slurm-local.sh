#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A one-node Slurm cluster on this machine, for kix fleet and its tests.
#
#   scripts/slurm-local.sh start    install Debian's slurmctld slurmd slurm-client munge when missing (root),
#                                   write a munge key and a slurm.conf naming this host with its CPUs and memory
#                                   and one partition (debug), start munged, slurmctld and slurmd in the background
#                                   (no systemd needed) and wait until sinfo shows the node idle.
#   scripts/slurm-local.sh stop     end exactly the daemons start started, by their pid files.
#   scripts/slurm-local.sh status   say whether it is up.
#
# Everything lives in $KIX_SLURM_DIR (default /tmp/kix-slurm): slurm.conf, the munge key and socket, spool, state,
# logs and pid files. Clients find the cluster with SLURM_CONF=$KIX_SLURM_DIR/slurm.conf (start prints it; it also
# links /etc/slurm/slurm.conf there when that file does not exist). Its own munged socket and ports 6917/6918
# (KIX_SLURM_PORT, +1) keep it clear of a system Slurm. Containers: proctrack/linuxproc, task/none, no cgroups,
# no accounting (kix fleet status reads squeue and the tasks' own state files).
# Exit codes: 0 ok, 1 failed (the daemons' log tails are printed), 77 Slurm cannot be installed here.
set -euo pipefail

dir="${KIX_SLURM_DIR:-/tmp/kix-slurm}"
port="${KIX_SLURM_PORT:-6917}"
conf="$dir/slurm.conf"
host="$(hostname -s)"
wait_s="${KIX_SLURM_WAIT:-60}"

say() { echo "slurm-local: $*" >&2; }

alive() { [[ -f "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

install_slurm() {
    local missing=()
    command -v slurmctld >/dev/null || [[ -x /usr/sbin/slurmctld ]] || missing+=(slurmctld)
    command -v slurmd >/dev/null || [[ -x /usr/sbin/slurmd ]] || missing+=(slurmd)
    command -v sbatch >/dev/null || missing+=(slurm-client)
    command -v munged >/dev/null || [[ -x /usr/sbin/munged ]] || missing+=(munge)
    ((${#missing[@]} == 0)) && return 0
    if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null; then
        say "SKIP: Slurm is not installed (${missing[*]}) and cannot be installed here (needs root and apt-get)"
        exit 77
    fi
    say "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y --no-install-recommends "${missing[@]}" >"$dir/apt.log" 2>&1; then
        apt-get update >>"$dir/apt.log" 2>&1 || true
        if ! apt-get install -y --no-install-recommends "${missing[@]}" >>"$dir/apt.log" 2>&1; then
            tail -5 "$dir/apt.log" >&2
            say "SKIP: apt-get could not install ${missing[*]} (log: $dir/apt.log)"
            exit 77
        fi
    fi
}

write_conf() {
    local cpus mem_mb
    cpus="$(nproc)"
    mem_mb=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 * 9 / 10))
    cat >"$conf" <<EOF
# Written by kix scripts/slurm-local.sh: a one-node cluster for kix fleet.
ClusterName=kix-local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmdParameters=config_overrides
SchedulerParameters=sched_interval=2
MinJobAge=600
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

logs() {
    for f in munged slurmctld slurmd; do
        [[ -f "$dir/$f.log" ]] && { echo "--- $dir/$f.log" >&2; tail -15 "$dir/$f.log" >&2; }
    done
    return 0
}

ready() { SLURM_CONF="$conf" timeout 10 sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; }

start() {
    mkdir -p "$dir"
    chmod 0755 "$dir"
    install_slurm
    if alive "$dir/munged.pid" && alive "$dir/slurmctld.pid" && alive "$dir/slurmd.pid" && ready; then
        say "already running (SLURM_CONF=$conf)"
        return 0
    fi
    stop quiet
    mkdir -p "$dir/state" "$dir/spool"
    write_conf
    [[ -e /etc/slurm/slurm.conf ]] || { mkdir -p /etc/slurm && ln -s "$conf" /etc/slurm/slurm.conf; } 2>/dev/null || true

    # munged: its own key, socket and files; --force because it runs as root here.
    if [[ ! -s "$dir/munge.key" ]]; then
        head -c 1024 /dev/urandom >"$dir/munge.key"
    fi
    chmod 0400 "$dir/munge.key"
    munged --force --key-file="$dir/munge.key" --socket="$dir/munge.socket" --pid-file="$dir/munged.pid" \
        --log-file="$dir/munged.log" --seed-file="$dir/munged.seed" || { logs; say "munged did not start"; exit 1; }

    # Both daemons fork into the background and write their pid files; -c starts with an empty queue.
    slurmctld -c -f "$conf" || { logs; say "slurmctld did not start"; exit 1; }
    slurmd -f "$conf" || { logs; say "slurmd did not start"; exit 1; }

    local t0=$SECONDS
    until ready; do
        if ((SECONDS - t0 > wait_s)); then
            SLURM_CONF="$conf" sinfo -N -l >&2 || true
            logs
            say "the node did not become idle within ${wait_s} s"
            exit 1
        fi
        # A node that registered DOWN (e.g. after an unclean stop) is brought back.
        SLURM_CONF="$conf" scontrol update nodename="$host" state=resume >/dev/null 2>&1 || true
        sleep 0.5
    done
    say "up in $((SECONDS - t0)) s: node $host, $(nproc) CPUs, partition debug (export SLURM_CONF=$conf)"
}

stop() {
    local quiet="${1:-}" any=0
    for d in slurmd slurmctld munged; do
        local pidfile="$dir/$d.pid"
        if alive "$pidfile"; then
            local pid
            pid="$(cat "$pidfile")"
            kill "$pid" 2>/dev/null || true
            for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null || true
            any=1
        fi
        rm -f "$pidfile"
    done
    if [[ -L /etc/slurm/slurm.conf && "$(readlink /etc/slurm/slurm.conf)" == "$conf" ]]; then
        rm -f /etc/slurm/slurm.conf
    fi
    [[ -n "$quiet" ]] || say "$( ((any)) && echo stopped || echo 'was not running')"
}

case "${1:-}" in
start) start ;;
stop) stop ;;
status)
    if ready; then say "up (SLURM_CONF=$conf)"; else say "down"; exit 1; fi
    ;;
*)
    echo "usage: $0 start|stop|status" >&2
    exit 2
    ;;
esac
