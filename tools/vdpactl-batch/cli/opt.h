/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Table-driven parsing of a command's options, either "--name value" (or
 * "--name=value") or iproute2 keywords ("name value"). Names and choice
 * values may be abbreviated to any unique prefix.
 */
#ifndef VDPACTL_OPT_H
#define VDPACTL_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum opt_kind {
	OPT_UINT, /* unsigned int in [min, max] */
	OPT_HEX64, /* uint64_t in [min, max], hex, 0x optional (iproute2) */
	OPT_CHOICE, /* int index into choices */
	OPT_FLAG, /* bool, takes no value */
	OPT_STRING, /* const char * */
	OPT_STRINGS, /* const char *[capacity], repeatable */
	OPT_MAC, /* uint8_t[6] */
	/*
	 * uint64_t ns in [min, max], from a time with its unit as tc(8)
	 * takes it: "20us", "2.5ms", "1s" (lib/strparse.h, parse_time_ns()).
	 * A bare number is refused: "20" could be any unit.
	 */
	OPT_TIME,
	/*
	 * uint32_t parts per million, from a percentage above 0 and at most
	 * 100 with at most 4 decimals, "%" optional: "12.5", "0.0001%"
	 * (lib/strparse.h, parse_percent_ppm()).
	 */
	OPT_PERCENT,
};

struct opt {
	const char *name;
	/* An old spelling still accepted (and not shown), e.g. "--reset". */
	const char *alias;
	enum opt_kind kind;
	void *value;
	uint64_t min, max; /* OPT_UINT, OPT_HEX64, OPT_TIME */
	const char *const *choices; /* OPT_CHOICE, NULL-terminated */
	unsigned int *count; /* OPT_STRINGS: items stored */
	unsigned int capacity; /* OPT_STRINGS */
	bool *given; /* optional: set when the option appears */
	bool required;
	bool power_of_2; /* OPT_UINT: also require a power of 2 */
};

/* Largest option table opt_parse() accepts. */
#define OPT_MAX 31

enum opt_style {
	OPT_STYLE_DASHES, /* --count 30 */
	OPT_STYLE_KEYWORDS, /* count 30 */
};

enum opt_result {
	OPT_OK,
	OPT_HELP, /* "help", "-h" or "--help" was asked for */
	OPT_ERROR, /* already reported on stderr */
};

/* @cmd names the command in messages, e.g. "load". */
enum opt_result opt_parse(const char *cmd, const struct opt *opts,
			  size_t n_opts, enum opt_style style, int argc,
			  char **argv);

/* "help", "-h" or "--help". */
bool opt_is_help(const char *arg);

/*
 * Index of the entry of @names (NULL-terminated) that @word equals or
 * uniquely abbreviates; -1 if none, -2 if ambiguous.
 */
int match_word(const char *word, const char *const *names);

/*
 * The entries of @names that @word abbreviates, each after @prefix,
 * comma-separated in @buf: the candidates of an ambiguous word.
 */
void match_candidates(const char *word, const char *const *names,
		      const char *prefix, char *buf, size_t len);

#endif
