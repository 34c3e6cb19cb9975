# SPDX-License-Identifier: GPL-2.0-only
# fuzz.mk - `make fuzz`: libFuzzer (clang, ASan+UBSan) over the result-file reader
# (and `make fuzz-noise` over the noise floor reader, seeds fuzz/corpus-noise/).
#
# FUZZ_SECONDS (default 60) bounds the run; new inputs go to build-fuzz/corpus,
# the seed corpus fuzz/corpus/ (valid and broken result files) is only read.
# `make check-fuzz-corpus` (in check-all) builds the target and runs each seed
# once: deterministic, so the target cannot rot and the seeds stay clean.
# Needs clang and its libFuzzer runtime (Debian: clang, libclang-rt-14-dev).

FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_BUILD   := build-fuzz
FUZZ_CFLAGS  := -std=gnu11 -g -O1 -I. -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-unused-parameter \
                $(PKG_CFLAGS) \
                -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
# The reader and every model it dispatches to: all of results/ (and stats/ and base/, which it uses).
FUZZ_LIB     := $(wildcard base/*.c results/*.c stats/*.c)
FUZZ_SRC     := fuzz/fuzz_result_read.c $(FUZZ_LIB)

.PHONY: fuzz-noise

$(FUZZ_BUILD)/fuzz_result_read: $(FUZZ_SRC) $(wildcard base/*.h results/*.h stats/*.h)
	@mkdir -p $(dir $@)
	@echo "  CC [F]  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(FUZZ_SRC) $(PKG_LIBS) -lm

$(FUZZ_BUILD)/fuzz_noise_read: fuzz/fuzz_noise_read.c $(FUZZ_LIB) $(wildcard base/*.h results/*.h stats/*.h)
	@mkdir -p $(dir $@)
	@echo "  CC [F]  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ fuzz/fuzz_noise_read.c $(FUZZ_LIB) $(PKG_LIBS) -lm

fuzz: $(FUZZ_BUILD)/fuzz_result_read
	@mkdir -p $(FUZZ_BUILD)/corpus
	$(FUZZ_BUILD)/fuzz_result_read -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
		-dict=fuzz/result.dict -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix=$(FUZZ_BUILD)/ $(FUZZ_BUILD)/corpus fuzz/corpus

fuzz-noise: $(FUZZ_BUILD)/fuzz_noise_read
	@mkdir -p $(FUZZ_BUILD)/corpus-noise
	$(FUZZ_BUILD)/fuzz_noise_read -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
		-dict=fuzz/result.dict -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix=$(FUZZ_BUILD)/noise- $(FUZZ_BUILD)/corpus-noise fuzz/corpus-noise

check-fuzz-corpus: $(FUZZ_BUILD)/fuzz_result_read $(FUZZ_BUILD)/fuzz_noise_read
	$(Q)$(FUZZ_BUILD)/fuzz_result_read -runs=0 fuzz/corpus
	$(Q)$(FUZZ_BUILD)/fuzz_noise_read -runs=0 fuzz/corpus-noise
