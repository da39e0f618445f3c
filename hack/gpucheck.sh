#!/usr/bin/env bash
# gpucheck.sh: the real-GPU check of docs/gpu-validation.md. On a host
# with NVIDIA GPU(s), as root, from the repository root: builds the node
# agent, runs its local check (inventory, history, validation with DCGM
# level 1), then a full scrub and a validation with DCGM level 1 and 2,
# timing each step, and the settings and the driver's client units before
# and after the scrub. Writes every evidence file and the timings to
# OUT (default ./gpucheck-out). Bounded to 10 minutes in all.
set -u -o pipefail
OUT=${1:-./gpucheck-out}
mkdir -p "$OUT"
deadline=$((SECONDS + 600))
log() { printf '%s %s\n' "$(date -u +%FT%TZ)" "$*" | tee -a "$OUT/timings.txt"; }
step() { # step NAME LIMIT_SECONDS COMMAND...
	local name=$1 limit=$2; shift 2
	local left=$((deadline - SECONDS))
	((left < limit)) && limit=$left
	if ((limit <= 0)); then log "$name skipped: the 10 minutes are spent"; return 1; fi
	local t0=$SECONDS
	timeout "$limit" "$@" >"$OUT/$name.json" 2>"$OUT/$name.stderr"
	local rc=$?
	log "$name rc=$rc seconds=$((SECONDS - t0))"
	return 0
}
log "host $(hostname) kernel $(uname -r)"
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv; dcgmi --version; } >"$OUT/host.txt" 2>&1
nvidia-smi --help-query-gpu >"$OUT/help-query-gpu.txt" 2>&1
nvidia-smi -q -x >"$OUT/nvidia-smi-q.xml" 2>&1
nvidia-smi nvlink -s >"$OUT/nvlink-s.txt" 2>&1
nvidia-smi nvlink -e >"$OUT/nvlink-e.txt" 2>&1
# The NVSwitch fabric as the scrub judges it (Completed/Success, or Not
# supported on boards without NVSwitch), and the boot id the reboot
# fallback compares across a reboot.
nvidia-smi --query-gpu=index,fabric.state,fabric.status --format=csv >"$OUT/fabric.txt" 2>&1
cat /proc/sys/kernel/random/boot_id >"$OUT/boot-id.txt" 2>&1
# The settings the scrub restores and the driver's client units it stops
# and starts again, before and after the scrub.
settings() {
	nvidia-smi --query-gpu=index,power.limit,power.default_limit,ecc.mode.current,ecc.mode.pending,accounting.mode,compute_mode,persistence_mode,pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,pcie.link.width.max --format=csv
	systemctl is-active nvidia-dcgm dcgm dcgm-exporter nvidia-dcgm-exporter nvidia-persistenced nvidia-fabricmanager
}
settings >"$OUT/settings-before.txt" 2>&1
t0=$SECONDS
CGO_ENABLED=0 go build -o "$OUT/gpuaas-node-agent" ./agent/cmd/gpuaas-node-agent || { log "build failed"; exit 1; }
log "build seconds=$((SECONDS - t0))"
A="$OUT/gpuaas-node-agent"
step check-validate-l1 120 "$A" check --validate --diag-level 1
step scrub 240 "$A" check --scrub
settings >"$OUT/settings-after.txt" 2>&1
step validate-l1 120 "$A" check --validate --diag-level 1
step validate-l2 300 "$A" check --validate --diag-level 2
for f in "$OUT"/*.json; do
	jq -r --arg f "$(basename "$f")" '.[]? | select(.diag) | "\($f) diag level \(.diag.level) state \(.diag.state) passed \(.diag.passed) duration_ms \(.diag.duration_ms)"' "$f" 2>/dev/null | tee -a "$OUT/timings.txt"
done
log "done; evidence in $OUT"
