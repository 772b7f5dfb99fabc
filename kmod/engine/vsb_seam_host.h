/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host side of the seam in vsb_seam.h: just the kernel names that the
 * engine's files (this folder) use, with their kernel meaning, so that
 * the same .c files build into the host unit tests and fuzzers. Add a
 * name here only when one of those files starts using it.
 */
#ifndef VSB_SEAM_HOST_H
#define VSB_SEAM_HOST_H

/* static_assert, for the layout checks kernel code makes too */
#include <assert.h>
/* -EIO, -EINVAL returned by the ring engine; -EFAULT, -EPERM by fake memory */
#include <errno.h>
/* bool, true, false: kernel code gets them from <linux/types.h> */
#include <stdbool.h>
/* memcpy, memset, memcmp: the kernel's <linux/string.h> */
#include <string.h>
/* le16toh and friends behind the le*_to_cpu helpers below */
#include <endian.h>
/* offsetof: the kernel's <linux/stddef.h> */
#include <stddef.h>
/* uintptr_t: the kernel's <linux/types.h> */
#include <stdint.h>
/*
 * The system UAPI headers (linux-libc-dev), the same definitions the module
 * gets from uapi/: __le16/__le32/__le64 (<linux/types.h>), ETH_ALEN,
 * ETH_HLEN, ETH_P_8021Q, struct vring_desc, struct vring_used_elem,
 * VRING_DESC_F_*, VRING_AVAIL_F_NO_INTERRUPT, vring_need_event(),
 * VIRTIO_NET_* constants.
 */
#include <linux/if_ether.h>
#include <linux/types.h>
#include <linux/virtio_net.h>
#include <linux/virtio_ring.h>

/* Kernel fixed-width types, which the kernel also defines from these. */
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;

/*
 * <linux/limits.h>: "no head taken" (U16_MAX), "nothing cached" (U32_MAX),
 * the lowest of no address yet (U64_MAX)
 */
#define U16_MAX ((u16)~0U)
#define U32_MAX ((u32)~0U)
#define U64_MAX ((u64)~0ULL)

/*
 * <linux/compiler_types.h>: a hot helper inlined where the compiler
 * won't (glibc's <sys/cdefs.h> has __always_inline), a cold one kept
 * out of line.
 */
#include <sys/cdefs.h>
#define noinline __attribute__((__noinline__))

/* VSB_CTRL_CHANGED_* flags (vsb_cvq.h). */
#define BIT(nr) (1UL << (nr))
#define BIT_ULL(nr) (1ULL << (nr))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Ring and descriptor fields are little-endian (VERSION_1). In userspace
 * __le16 and friends are plain integers (sparse's __bitwise is empty), so
 * these are the libc byte-order conversions.
 */
#define le16_to_cpu(x) ((u16)le16toh(x))
#define le32_to_cpu(x) ((u32)le32toh(x))
#define le64_to_cpu(x) ((u64)le64toh(x))
#define cpu_to_le16(x) ((__le16)htole16(x))
#define cpu_to_le32(x) ((__le32)htole32(x))

/*
 * <linux/virtio_byteorder.h>: the __virtio16/32/64 fields of struct
 * vring_desc and struct vring_used_elem, in the byte order the driver
 * negotiated (little-endian with VERSION_1).
 */
#define __virtio16_to_cpu(little_endian, x) \
	((u16)((little_endian) ? le16toh(x) : be16toh(x)))
#define __virtio32_to_cpu(little_endian, x) \
	((u32)((little_endian) ? le32toh(x) : be32toh(x)))
#define __virtio64_to_cpu(little_endian, x) \
	((u64)((little_endian) ? le64toh(x) : be64toh(x)))
#define __cpu_to_virtio32(little_endian, x) \
	((__virtio32)((little_endian) ? htole32(x) : htobe32(x)))

/*
 * <linux/unaligned.h>: byte-order loads and stores at any address, done
 * bytewise so that they are right whatever the host's byte order.
 */
static inline u16 get_unaligned_be16(const void *p)
{
	const u8 *b = p;

	return (u16)(b[0] << 8 | b[1]);
}

static inline u16 get_unaligned_le16(const void *p)
{
	const u8 *b = p;

	return (u16)(b[0] | b[1] << 8);
}

static inline u32 get_unaligned_be32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | b[3];
}

static inline u32 get_unaligned_le32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] | (u32)b[1] << 8 | (u32)b[2] << 16 | (u32)b[3] << 24;
}

static inline u64 get_unaligned_le64(const void *p)
{
	const u8 *b = p;
	u64 v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

static inline void put_unaligned_le16(u16 val, void *p)
{
	u8 *b = p;

	b[0] = val & 0xff;
	b[1] = val >> 8;
}

static inline void put_unaligned_le32(u32 val, void *p)
{
	u8 *b = p;
	int i;

	for (i = 0; i < 4; i++)
		b[i] = (u8)(val >> (8 * i));
}

static inline void put_unaligned_le64(u64 val, void *p)
{
	u8 *b = p;
	int i;

	for (i = 0; i < 8; i++)
		b[i] = (u8)(val >> (8 * i));
}

/*
 * <linux/etherdevice.h>. The kernel's is_broadcast_ether_addr() loads
 * 16-bit words, so it wants addr 2-byte aligned; this one loads them too,
 * so that UBSan reports a caller that breaks the rule.
 */
static inline bool is_multicast_ether_addr(const u8 *addr)
{
	return addr[0] & 1;
}

static inline bool is_broadcast_ether_addr(const u8 *addr)
{
	const u16 *w = (const u16 *)addr;

	return (w[0] & w[1] & w[2]) == 0xffff;
}

/* ether_addr_equal_unaligned(): no alignment asked of either address. */
static inline bool ether_addr_equal_unaligned(const u8 *addr1, const u8 *addr2)
{
	return !memcmp(addr1, addr2, ETH_ALEN);
}

/*
 * <linux/overflow.h>: true if a + b does not fit in *d; *d gets the
 * wrapped sum either way, as in the kernel.
 */
#define check_add_overflow(a, b, d) __builtin_add_overflow(a, b, d)

/*
 * <linux/minmax.h> min(): each argument evaluated once. The kernel's also
 * rejects mixed types at build time; its own build checks that already.
 */
#define min(x, y)                                  \
	({                                         \
		__typeof__(x) _min_x = (x);        \
		__typeof__(y) _min_y = (y);        \
		_min_x < _min_y ? _min_x : _min_y; \
	})

/* min_t(): both converted to type first, as in the kernel. */
#define min_t(type, x, y)                                  \
	({                                                 \
		type _min_t_x = (x);                       \
		type _min_t_y = (y);                       \
		_min_t_x < _min_t_y ? _min_t_x : _min_t_y; \
	})

/* max_t(): as min_t(). */
#define max_t(type, x, y)                                  \
	({                                                 \
		type _max_t_x = (x);                       \
		type _max_t_y = (y);                       \
		_max_t_x > _max_t_y ? _max_t_x : _max_t_y; \
	})

/*
 * smp_mb/rmb/wmb(): the tests run driver and device in one thread, where
 * any fence will do; C11 fences keep them right for a threaded test too.
 */
#define vsb_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define vsb_rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define vsb_wmb() __atomic_thread_fence(__ATOMIC_RELEASE)

/* One load or store of a field, as the kernel's: through a volatile. */
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val) (*(volatile __typeof__(x) *)&(x) = (val))

#endif /* VSB_SEAM_HOST_H */
