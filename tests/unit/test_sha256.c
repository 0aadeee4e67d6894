/* test_sha256.c — SHA-256 against the FIPS 180-4 test vectors. */
#include "helpers.h"
#include "sha256.h"

#include <stdlib.h>
#include <string.h>

static void assert_digest(const void *data, size_t len, const char *want)
{
	char out[65];
	memset(out, 'x', sizeof out);
	rl_sha256_hex(data, len, out);
	assert_int_equal(out[64], '\0');
	assert_string_equal(out, want);
}

/* n copies of 'a', hashed */
static void assert_digest_of_as(size_t n, const char *want)
{
	char *buf = malloc(n ? n : 1);
	assert_non_null(buf);
	memset(buf, 'a', n);
	assert_digest(buf, n, want);
	free(buf);
}

static void test_empty(void **state)
{
	assert_digest("", 0,
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

static void test_abc(void **state)
{
	assert_digest("abc", 3,
		"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

static void test_two_blocks(void **state)
{
	static const char msg[] =
		"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	assert_int_equal(strlen(msg), 56);
	assert_digest(msg, strlen(msg),
		"248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void test_896_bits(void **state)
{
	static const char msg[] =
		"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
		"hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
	assert_int_equal(strlen(msg), 112);
	assert_digest(msg, strlen(msg),
		"cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

static void test_million_a(void **state)
{
	assert_digest_of_as(1000000,
		"cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* Lengths around the padding boundaries (55/56 bytes of the last block,
 * whole blocks), checked against sha256sum. */
static void test_padding_boundaries(void **state)
{
	assert_digest_of_as(55,
		"9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
	assert_digest_of_as(56,
		"b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
	assert_digest_of_as(63,
		"7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34");
	assert_digest_of_as(64,
		"ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
	assert_digest_of_as(65,
		"635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0");
	assert_digest_of_as(119,
		"31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb");
	assert_digest_of_as(120,
		"2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c");
}

static void test_binary_input(void **state)
{
	/* bytes are hashed as given, NULs included */
	static const unsigned char a[] = { 0x00, 0xFF, 0x00 };
	static const unsigned char b[] = { 0x00, 0xFF, 0x01 };
	char da[65], db[65];
	rl_sha256_hex(a, sizeof a, da);
	rl_sha256_hex(b, sizeof b, db);
	assert_string_not_equal(da, db);
	assert_int_equal(strspn(da, "0123456789abcdef"), 64);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_abc),
		cmocka_unit_test(test_two_blocks),
		cmocka_unit_test(test_896_bits),
		cmocka_unit_test(test_million_a),
		cmocka_unit_test(test_padding_boundaries),
		cmocka_unit_test(test_binary_input),
	};
	return cmocka_run_group_tests_name("sha256", tests, NULL, NULL);
}
