/* fleet_machine — the "machine" object of a result file: where it was
 * measured.  Contract in fleet.h. */
#include "fleet.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <json-c/json.h>

#include "blockdev.h"
#include "export.h"
#include "jout.h"
#include "lab.h"
#include "profile.h"
#include "stack.h"
#include "sysfs.h"

/* ---- SHA-256 (FIPS 180-4) and HMAC (RFC 2104), for the machine id ---- */

struct sha256 {
	uint32_t h[8];
	uint8_t buf[64];
	uint64_t len;     /* bytes hashed */
	size_t fill;
};

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

static uint32_t ror(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static void sha_block(struct sha256 *s, const uint8_t *p)
{
	uint32_t w[64];
	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	uint32_t a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3];
	uint32_t e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) +
			      K[i] + w[i];
		uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		h = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	s->h[0] += a;
	s->h[1] += b;
	s->h[2] += c;
	s->h[3] += d;
	s->h[4] += e;
	s->h[5] += f;
	s->h[6] += g;
	s->h[7] += h;
}

static void sha_init(struct sha256 *s)
{
	static const uint32_t h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
					0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	memcpy(s->h, h0, sizeof(h0));
	s->len = 0;
	s->fill = 0;
}

static void sha_update(struct sha256 *s, const uint8_t *p, size_t n)
{
	s->len += n;
	while (n) {
		size_t take = 64 - s->fill < n ? 64 - s->fill : n;
		memcpy(s->buf + s->fill, p, take);
		s->fill += take;
		p += take;
		n -= take;
		if (s->fill == 64) {
			sha_block(s, s->buf);
			s->fill = 0;
		}
	}
}

static void sha_final(struct sha256 *s, uint8_t out[32])
{
	uint64_t bits = s->len * 8;
	uint8_t pad = 0x80, zero = 0, lenb[8];
	sha_update(s, &pad, 1);
	while (s->fill != 56)
		sha_update(s, &zero, 1);
	for (int i = 0; i < 8; i++)
		lenb[i] = (uint8_t)(bits >> (56 - 8 * i));
	sha_update(s, lenb, 8);
	for (int i = 0; i < 8; i++) {
		out[4 * i] = (uint8_t)(s->h[i] >> 24);
		out[4 * i + 1] = (uint8_t)(s->h[i] >> 16);
		out[4 * i + 2] = (uint8_t)(s->h[i] >> 8);
		out[4 * i + 3] = (uint8_t)s->h[i];
	}
}

/* HMAC-SHA256 with a key of at most 64 bytes. */
static void hmac_sha256(const uint8_t *key, size_t klen, const uint8_t *msg, size_t mlen,
			uint8_t out[32])
{
	uint8_t k[64] = { 0 }, ipad[64], opad[64], inner[32];
	memcpy(k, key, klen <= 64 ? klen : 64);
	for (int i = 0; i < 64; i++) {
		ipad[i] = k[i] ^ 0x36;
		opad[i] = k[i] ^ 0x5c;
	}
	struct sha256 s;
	sha_init(&s);
	sha_update(&s, ipad, 64);
	sha_update(&s, msg, mlen);
	sha_final(&s, inner);
	sha_init(&s);
	sha_update(&s, opad, 64);
	sha_update(&s, inner, 32);
	sha_final(&s, out);
}

static int hex_bytes(const char *hex, uint8_t out[16])
{
	for (int i = 0; i < 16; i++) {
		unsigned v = 0;
		for (int j = 0; j < 2; j++) {
			char c = hex[2 * i + j];
			unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
				     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
				     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16u;
			if (d > 15)
				return -EINVAL;
			v = v * 16 + d;
		}
		out[i] = (uint8_t)v;
	}
	return hex[32] == '\0' ? 0 : -EINVAL;
}

int fleet_machine_id(const char *id, char out[33])
{
	uint8_t key[16], app[16], mac[32];
	out[0] = '\0';
	if (!id || strlen(id) != 32 || hex_bytes(id, key) < 0 || hex_bytes(FLEET_APP_ID, app) < 0)
		return -EINVAL;
	hmac_sha256(key, sizeof(key), app, sizeof(app), mac);
	mac[6] = (mac[6] & 0x0f) | 0x40;   /* UUID version 4 */
	mac[8] = (mac[8] & 0x3f) | 0x80;   /* RFC 4122 variant */
	for (int i = 0; i < 16; i++)
		snprintf(out + 2 * i, 3, "%02x", mac[i]);
	return 0;
}

/* ---- the object ---- */

const char *fleet_disk_class(const struct blockdev *d)
{
	if (strcmp(d->transport, "usb") == 0)
		return "usb";
	if (strcmp(d->transport, "virtio") == 0 || strncmp(d->name, "xvd", 3) == 0)
		return "virtual";
	return profile_class_name(export_device_class(d));
}

static void add(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

/* /etc/machine-id, hashed; NULL when it cannot be read. */
static struct json_object *machine_id(void)
{
	char raw[64], id[33];
	if (sysfs_read("/etc/machine-id", raw, sizeof(raw)) < 0 || fleet_machine_id(raw, id) < 0)
		return NULL;
	return jout_string(id);
}

static struct json_object *disk_json(const struct blockdev *b, const struct fleet_measured *m,
				     size_t n)
{
	struct json_object *o = jout_object();
	char model[160], cls[LABMODEL_CLASS_MAX];
	lab_disk_model(b, model, sizeof(model), cls, sizeof(cls));
	const char *sched = b->queue.scheduler;
	for (size_t i = 0; i < n; i++)
		if (m[i].name && m[i].scheduler && m[i].scheduler[0] && strcmp(m[i].name, b->name) == 0)
			sched = m[i].scheduler;
	add(o, "name", jout_string(b->name));
	add(o, "class", jout_string(cls[0] ? cls : fleet_disk_class(b)));
	add(o, "model", jout_string(model));
	add(o, "vendor", jout_string(b->vendor));
	add(o, "firmware", jout_string(b->firmware));
	add(o, "transport", jout_string(b->transport));
	add(o, "rotational", b->rotational < 0 ? NULL : jout_bool(b->rotational));
	add(o, "scheduler", sched[0] ? jout_string(sched) : NULL);
	return o;
}

struct json_object *fleet_machine_json(const char *dir, const struct fleet_measured *measured,
				       size_t n)
{
	struct json_object *o = jout_object();
	struct utsname u;
	int un = uname(&u) == 0;
	add(o, "hostname", un ? jout_string(u.nodename) : NULL);
	add(o, "kernel", un ? jout_string(u.release) : NULL);
	add(o, "machine_id", machine_id());
	struct json_object *disks = jout_array();
	struct stack *st = NULL;
	if (dir && stack_resolve_path(dir, &st) == 0 && st) {
		const struct blockdev *leaves[FLEET_MAX_DISKS];
		size_t nl = stack_leaves(st, leaves, FLEET_MAX_DISKS);
		for (size_t i = 0; i < nl && i < FLEET_MAX_DISKS; i++)
			json_object_array_add(disks, disk_json(leaves[i], measured, n));
	}
	stack_free(st);
	add(o, "disks", disks);
	return o;
}
