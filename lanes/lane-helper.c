// SPDX-License-Identifier: GPL-2.0
/*
 * lane-helper - tiny static helper run inside the lane VMs (lanes/init).
 *
 *   lane-helper kvm       print {"api_version":N,"vcpu_mmap_size":N} for
 *                         /dev/kvm as JSON: proves the module loaded and
 *                         the device answers, independent of exitscope.
 *   lane-helper e9        copy stdin to I/O port 0xE9, the debug port of
 *                         both Bochs (port_e9_hack) and QEMU (isa-debugcon):
 *                         no UART, no interrupts, so results leave the VM
 *                         far faster than over the serial console.
 *   lane-helper tsc       print {"tsc_khz_measured":N}: TSC ticks per
 *                         CLOCK_MONOTONIC millisecond over 0.5 s (a check
 *                         of the kernel's TSC frequency inside emulators).
 *   lane-helper poweroff  leave the emulator: write "Shutdown" to the Bochs
 *                         port 0x8900 (harmless elsewhere), then
 *                         reboot(RB_AUTOBOOT), which QEMU -no-reboot turns
 *                         into an exit, then RB_POWER_OFF.
 *
 * Built with -static so that it runs from a busybox-only initramfs.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <stdio.h>
#include <string.h>
#include <sys/io.h>
#include <sys/ioctl.h>
#include <sys/reboot.h>
#include <time.h>
#include <unistd.h>

#define BOCHS_SHUTDOWN_PORT 0x8900
#define DEBUG_PORT 0xe9

static int cmd_kvm(void)
{
	int fd, api, mmap_size;

	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		printf("{\"error\":\"open /dev/kvm: %s\"}\n", strerror(errno));
		return 1;
	}
	api = ioctl(fd, KVM_GET_API_VERSION, 0);
	mmap_size = ioctl(fd, KVM_GET_VCPU_MMAP_SIZE, 0);
	printf("{\"api_version\":%d,\"vcpu_mmap_size\":%d}\n", api, mmap_size);
	close(fd);
	return api == KVM_API_VERSION ? 0 : 1;
}

static int cmd_e9(void)
{
	unsigned char buf[4096];
	ssize_t n, i;

	if (ioperm(DEBUG_PORT, 1, 1)) {
		perror("ioperm 0xe9");
		return 1;
	}
	while ((n = read(0, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			perror("read");
			return 1;
		}
		for (i = 0; i < n; i++)
			outb(buf[i], DEBUG_PORT);
	}
	return 0;
}

static unsigned long long rdtsc(void)
{
	unsigned int lo, hi;

	asm volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi));
	return ((unsigned long long)hi << 32) | lo;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmd_tsc(void)
{
	struct timespec half = { 0, 500000000 };
	unsigned long long t0, t1;
	long long n0, n1;

	n0 = now_ns();
	t0 = rdtsc();
	nanosleep(&half, NULL);
	t1 = rdtsc();
	n1 = now_ns();
	printf("{\"tsc_khz_measured\":%llu}\n",
	       n1 > n0 ? (t1 - t0) * 1000000ULL / (unsigned long long)(n1 - n0) : 0ULL);
	return 0;
}

static int cmd_poweroff(void)
{
	static const char msg[] = "Shutdown";
	size_t i;

	sync();
	if (ioperm(BOCHS_SHUTDOWN_PORT, 1, 1) == 0) {
		for (i = 0; i < sizeof(msg) - 1; i++)
			outb(msg[i], BOCHS_SHUTDOWN_PORT);
	}
	reboot(RB_AUTOBOOT);
	reboot(RB_POWER_OFF);
	perror("reboot");
	return 1;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "kvm"))
		return cmd_kvm();
	if (argc == 2 && !strcmp(argv[1], "tsc"))
		return cmd_tsc();
	if (argc == 2 && !strcmp(argv[1], "e9"))
		return cmd_e9();
	if (argc == 2 && !strcmp(argv[1], "poweroff"))
		return cmd_poweroff();
	fprintf(stderr, "usage: lane-helper kvm|tsc|e9|poweroff\n");
	return 2;
}
