/* SPDX-License-Identifier: GPL-2.0-only */
/* map_guest.h - what the host and guest halves of the map share. */
#ifndef EXITSCOPE_MAP_MAP_GUEST_H
#define EXITSCOPE_MAP_MAP_GUEST_H

#include <stdint.h>

#define MAP_SYNC_BEGIN		1
#define MAP_SYNC_END		2

extern uint64_t map_g_reg, map_g_mask, map_g_ops, map_g_rounds, map_g_pre_cr0, map_g_pre_cr4;
uint64_t map_guest_run(uint64_t arg);

#endif
