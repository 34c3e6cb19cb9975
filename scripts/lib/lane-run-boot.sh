# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# lane-run-boot.sh - sourced by scripts/lane-run: the emulator's command line
# (Bochs: boot ISO and bochsrc; QEMU: -kernel/-initrd), the boot itself under
# a timeout, the progress line on a terminal, the stall watch of Bochs, and
# the end of the run once init has printed DONE.

# --- step: boot -----------------------------------------------------------
append="console=ttyS0,115200 loglevel=4 panic=-1 nokaslr ${LANE_APPEND:-}"
serial=$out/serial.log
debugcon=$out/debugcon.log
: > "$serial"
: > "$debugcon"
if [ "$emu_kind" = bochs ]; then
	# Bochs' TSC advances once per instruction (ips per virtual second; the
	# lane's lane-helper tsc block measures it), but Linux takes the
	# frequency of the Skylake-X model from CPUID (3.5 GHz): its clock would
	# then run ~175 times slow and every timed wait in exitscope with it
	# (run: 300 s instead of 10 s). Tell it the truth.
	append="$append tsc_early_khz=$((ips / 1000))"
	# Bochs 2.7: no XSAVEC/XSAVES, so that Linux uses the standard XSAVE
	# format whose size Bochs reports right, and keeps XSAVE (KVM: XCR0 0xe7).
	[ "$clearcpuid" = none ] || append="$append clearcpuid=$clearcpuid"
	[ -z "$apicv" ] || append="$append $apicv_param=$apicv"
	timeout_s=${LANE_TIMEOUT:-$([ "$kernel_kind" = stock ] && echo 1200 || echo 900)}
	iso=$out/iso
	mkdir -p "$iso/isolinux"
	cp /usr/lib/ISOLINUX/isolinux.bin /usr/lib/syslinux/modules/bios/ldlinux.c32 "$iso/isolinux/"
	cp "$vmlinuz" "$iso/vmlinuz"
	cp "$out/initramfs.gz" "$iso/initrd.gz"
	cat > "$iso/isolinux/isolinux.cfg" <<-CFG
	DEFAULT lane
	PROMPT 0
	TIMEOUT 0
	LABEL lane
	  KERNEL /vmlinuz
	  INITRD /initrd.gz
	  APPEND $append
	CFG
	xorriso -as mkisofs -quiet -o "$out/lane.iso" -b isolinux/isolinux.bin -c isolinux/boot.cat \
		-no-emul-boot -boot-load-size 4 -boot-info-table "$iso" 2> "$out/xorriso.log" ||
		fail iso "xorriso: $(tail -n 3 "$out/xorriso.log")"
	# Debian's 2.7 package has no nogui library (rfb, no waiting for a
	# viewer), the lane's 3.0 build has. Both have the sound devices and
	# need the dummy drivers (2.7 aborted "buffer overflow detected", 3.0
	# panics "Could not open wave output device" without).
	if [ $bochs_nogui = 1 ]; then
		display='display_library: nogui'
	else
		display='display_library: rfb, options="timeout=0"'
	fi
	cat > "$out/bochsrc" <<-RC
	megs: 512
	cpu: model=$bochs_cpu, count=1, ips=$ips, reset_on_triple_fault=0, msrs="$top/lanes/bochs-msrs.def"
	romimage: file=$bochs_bios
	vgaromimage: file=$bochs_vgabios
	$display
	ata0-master: type=cdrom, path=$out/lane.iso, status=inserted
	boot: cdrom
	com1: enabled=1, mode=file, dev=$serial
	clock: sync=none
	pci: enabled=1, chipset=i440fx
	speaker: enabled=0
	sound: waveoutdrv=dummy, waveindrv=dummy, midioutdrv=dummy
	panic: action=fatal
	port_e9_hack: enabled=1
	log: $out/bochs.log
	RC
	# Bochs prints what the guest writes to port 0xE9 on its stdout, through
	# a stdio buffer that its exit by the shutdown port never flushes.
	emu=(stdbuf -o0 "$bochs_bin" -q -f "$out/bochsrc")
	# The instrumented Bochs writes its counts there (lanes/bochs-instrument).
	[ -z "$profile" ] || emu=(env EXITSCOPE_PROFILE_OUT="$out/profile.txt" "${emu[@]}")
	if [ $bochs_rc = 1 ]; then
		echo c > "$out/bochs.rc"
		emu+=(-rc "$out/bochs.rc")
	fi
	e9_stdout=1
else
	timeout_s=${LANE_TIMEOUT:-900}
	icount_args=()
	[ "$icount" = off ] || icount_args=(-icount "$icount" -rtc clock=vm)
	emu=(qemu-system-x86_64 -accel tcg -cpu "$qemu_cpu" "${icount_args[@]}" -m 1024 -smp 1 -nographic -no-reboot
		-monitor none -serial "file:$serial" -kernel "$vmlinuz" -initrd "$out/initramfs.gz"
		-append "$append" -debugcon "file:$debugcon" -global isa-debugcon.iobase=0xe9)
	e9_stdout=0
fi
note "booting ${emu[0]} (timeout ${timeout_s}s)"
tb=$(date +%s)
if [ $e9_stdout = 1 ]; then
	(cd "$out" && exec nice timeout -k 5 "$timeout_s" "${emu[@]}" < /dev/null > "$debugcon" 2> "$out/emulator.log") &
else
	(cd "$out" && exec nice timeout -k 5 "$timeout_s" "${emu[@]}" < /dev/null > "$out/emulator.log" 2>&1) &
fi
emu_pid=$!
# Progress on a terminal (stderr is a tty; nothing otherwise): the line of
# scripts/lane-progress, redrawn each second, cut to the width, erased at
# the end. The estimate of the time left is the last complete run's time.
progress_tty=0
[ -t 2 ] && progress_tty=1
times_file=$(dirname "$out")/.lane-seconds-$(basename "$out")
last_s=$(cat "$times_file" 2>/dev/null)
progress_draw() {
	local line cols

	line=$("$top/scripts/lane-progress" "$lane" "$serial" "$root/lane/commands.list" \
		$(( $(date +%s) - tb )) "$timeout_s" "$last_s")
	cols=$(stty size <&2 2>/dev/null | cut -d' ' -f2)
	case $cols in '' | *[!0-9]*) cols=80 ;; esac
	printf '\r\033[K%s' "${line:0:$((cols - 1))}" >&2
}
progress_clear() { [ $progress_tty = 0 ] || printf '\r\033[K' >&2; }
# A stalled Bochs: it never sleeps (clock: sync=none, no idle hack), so a
# Bochs that used no CPU time for stall_s seconds is blocked, and the lane
# ends then instead of at its timeout, with what it was blocked in
# ($out/stall.txt: thread states, kernel wait channels, a gdb backtrace when
# gdb is installed).
stall_s=${LANE_STALL:-30}
stalled=
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null; }
stall_report() {
	local pid=$1 t
	{
		echo "Bochs pid $pid used no CPU time for ${stall_s}s, +$(( $(date +%s) - tb ))s into the run"
		for t in /proc/$pid/task/*; do
			echo "thread ${t##*/}: state $(awk '{ print $3 }' "$t/stat") wchan $(cat "$t/wchan" 2>/dev/null)"
			cat "$t/stack" 2>/dev/null | sed 's/^/    /'
		done
		command -v gdb > /dev/null && timeout 60 gdb -q -batch -p "$pid" -ex 'thread apply all bt' 2>&1
	} > "$out/stall.txt" 2>&1
}
emu_child=
last_ticks=
last_tick_s=$(date +%s)
# Stop the emulator once init has printed DONE and had a moment to leave by
# itself (Bochs' shutdown port, QEMU's -no-reboot); never wait for more.
while kill -0 $emu_pid 2>/dev/null; do
	if grep -q '^@@LANE DONE' "$debugcon" 2>/dev/null; then
		for _ in 1 2 3 4 5; do kill -0 $emu_pid 2>/dev/null || break; sleep 1; done
		kill -TERM $emu_pid 2>/dev/null
		break
	fi
	if [ "$emu_kind" = bochs ] && [ "$stall_s" != 0 ]; then
		[ -n "$emu_child" ] || emu_child=$(pgrep -P $emu_pid | head -n 1)
		ticks=$(cpu_ticks "$emu_child")
		if [ -n "$ticks" ] && [ "$ticks" != "$last_ticks" ]; then
			last_ticks=$ticks
			last_tick_s=$(date +%s)
		elif [ -n "$ticks" ] && [ $(( $(date +%s) - last_tick_s )) -ge "$stall_s" ]; then
			stall_report "$emu_child"
			stalled="Bochs stalled: no CPU time for ${stall_s}s at +$(( $(date +%s) - tb ))s, blocked in $(cat "/proc/$emu_child/wchan" 2>/dev/null || echo '?') (see $out/stall.txt)"
			kill -TERM $emu_pid 2>/dev/null
			break
		fi
	fi
	[ $progress_tty = 1 ] && progress_draw
	sleep 1
	[ -n "${LANE_DEBUG:-}" ] && progress_clear && echo "lane $lane: +$(( $(date +%s) - tb ))s console $(wc -c < "$serial") debug $(wc -c < "$debugcon") bytes: $(grep -a '@@LANE' "$debugcon" | tail -n 1 | cut -c1-60)"
done
progress_clear
wait $emu_pid
emu_rc=$?
boot_s=$(( $(date +%s) - tb ))
# The estimate of the next run: the time of this one, when it got to the end.
grep -q '^@@LANE DONE' "$debugcon" 2>/dev/null && echo "$boot_s" > "$times_file" 2>/dev/null
note "emulator finished after ${boot_s}s (status $emu_rc, not used for pass/fail)"
tr -d '\r' < "$serial" > "$out/console.log"
[ -z "$stalled" ] || fail boot "$stalled"
# Bochs ends the run itself on a PANIC (panic: action=fatal): say which.
if [ "$emu_kind" = bochs ] && ! grep -q '^@@LANE DONE' "$debugcon" && grep -q '>>PANIC<<' "$out/bochs.log" 2>/dev/null; then
	fail emulator "Bochs panicked after ${boot_s}s: $(grep -m1 '>>PANIC<<' "$out/bochs.log" | sed 's/.*>>PANIC<< *//') (see $out/bochs.log)"
fi
