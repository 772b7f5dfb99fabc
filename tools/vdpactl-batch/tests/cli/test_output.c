// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON writer and the one print path for text and JSON.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/feature_print.h"
#include "cli/output.h"
#include "lib/compat.h"

/* Output captured in memory. */
struct capture {
	char *text;
	size_t len;
	FILE *f;
	struct output out;
};

static void capture_start(struct capture *c, bool json, bool pretty)
{
	c->text = NULL;
	c->len = 0;
	c->f = open_memstream(&c->text, &c->len);
	assert_non_null(c->f);
	output_init(&c->out, c->f, json, pretty);
}

static const char *capture_end(struct capture *c)
{
	fclose(c->f);
	return c->text;
}

static void capture_free(struct capture *c)
{
	free(c->text);
}

static void nesting_and_commas(void **state)
{
	struct capture c;

	(void)state;
	capture_start(&c, true, false);
	jw_object_open(&c.out.jw);
	jw_key(&c.out.jw, "a");
	jw_u64(&c.out.jw, 1);
	jw_key(&c.out.jw, "list");
	jw_array_open(&c.out.jw);
	jw_string(&c.out.jw, "x");
	jw_bool(&c.out.jw, true);
	jw_null(&c.out.jw);
	jw_array_close(&c.out.jw);
	jw_key(&c.out.jw, "empty");
	jw_object_open(&c.out.jw);
	jw_object_close(&c.out.jw);
	jw_key(&c.out.jw, "neg");
	jw_i64(&c.out.jw, -5);
	jw_key(&c.out.jw, "us");
	jw_double(&c.out.jw, 6.8345);
	jw_object_close(&c.out.jw);
	assert_string_equal(capture_end(&c),
			    "{\"a\":1,\"list\":[\"x\",true,null],"
			    "\"empty\":{},\"neg\":-5,\"us\":6.835}\n");
	capture_free(&c);
}

static void escaping(void **state)
{
	struct capture c;

	(void)state;
	capture_start(&c, true, false);
	jw_array_open(&c.out.jw);
	jw_string(&c.out.jw, "q\"b\\n\nt\t\x01 caf\xc3\xa9");
	jw_array_close(&c.out.jw);
	assert_string_equal(capture_end(&c),
			    "[\"q\\\"b\\\\n\\nt\\t\\u0001 caf\xc3\xa9\"]\n");
	capture_free(&c);
}

static void pretty_printing(void **state)
{
	struct capture c;

	(void)state;
	capture_start(&c, true, true);
	jw_object_open(&c.out.jw);
	jw_key(&c.out.jw, "a");
	jw_array_open(&c.out.jw);
	jw_u64(&c.out.jw, 1);
	jw_u64(&c.out.jw, 2);
	jw_array_close(&c.out.jw);
	jw_object_close(&c.out.jw);
	assert_string_equal(capture_end(&c), "{\n    \"a\": [\n        1,\n"
					     "        2\n    ]\n}\n");
	capture_free(&c);
}

static void not_a_number_is_null(void **state)
{
	struct capture c;

	(void)state;
	capture_start(&c, true, false);
	jw_array_open(&c.out.jw);
	jw_double(&c.out.jw, 0.0 / 0.0);
	jw_array_close(&c.out.jw);
	assert_string_equal(capture_end(&c), "[null]\n");
	capture_free(&c);
}

/* The same calls, printed as text and as JSON. */
static void print_device(struct output *o)
{
	print_section_open(o, "dev");
	print_handle_open(o, "vdpa0");
	print_string(o, PRINT_ANY, "type", "type %s", "network");
	print_uint(o, PRINT_ANY, "max_vqs", " max_vqs %u", 3);
	print_u64(o, PRINT_ANY, "big", " big %" PRIu64, UINT64_C(1) << 40);
	print_bool(o, PRINT_ANY, "up", " up %s", true);
	print_double(o, PRINT_ANY, "us", " us %.1f", 2.25);
	print_string(o, PRINT_JSON, "json_only", NULL, "j");
	print_string(o, PRINT_FP, NULL, " text_only %s", "t");
	print_named_u64(o, "cvq requests", 30000);
	print_text(o, "\n  features");
	print_net_features(o, "features",
			   (1ULL << VIRTIO_NET_F_CTRL_VQ) | (1ULL << 50));
	print_handle_close(o);
	print_section_close(o);
}

static void one_print_path(void **state)
{
	struct capture c;

	(void)state;
	capture_start(&c, false, false);
	print_device(&c.out);
	assert_string_equal(capture_end(&c),
			    "vdpa0: type network max_vqs 3 big 1099511627776 "
			    "up true us 2.2 text_only t"
			    "cvq requests 30000 \n  features CTRL_VQ bit_50\n");
	capture_free(&c);

	capture_start(&c, true, false);
	print_device(&c.out);
	assert_string_equal(capture_end(&c),
			    "{\"dev\":{\"vdpa0\":{\"type\":\"network\","
			    "\"max_vqs\":3,\"big\":1099511627776,\"up\":true,"
			    "\"us\":2.250,\"json_only\":\"j\","
			    "\"cvq requests\":30000,"
			    "\"features\":[\"CTRL_VQ\",50]}}}\n");
	capture_free(&c);
}

static void named_counters_are_not_formats(void **state)
{
	struct capture c;

	(void)state;
	capture_start(&c, false, false);
	print_named_u64(&c.out, "100%s %n", 7);
	assert_string_equal(capture_end(&c), "100%s %n 7 ");
	capture_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nesting_and_commas),
		cmocka_unit_test(escaping),
		cmocka_unit_test(pretty_printing),
		cmocka_unit_test(not_a_number_is_null),
		cmocka_unit_test(one_print_path),
		cmocka_unit_test(named_counters_are_not_formats),
	};

	return cmocka_run_group_tests_name("output", tests, NULL, NULL);
}
