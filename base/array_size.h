/* SPDX-License-Identifier: GPL-2.0-only */
/* array_size.h - ARRAY_SIZE(a): the number of elements of the array a (never a pointer). */
#ifndef EXITSCOPE_BASE_ARRAY_SIZE_H
#define EXITSCOPE_BASE_ARRAY_SIZE_H

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif
