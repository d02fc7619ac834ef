# bench.mk — `make bench-quick`: a quick C timing of the classifier (a benchmark, not a test).
.PHONY: bench-quick
bench-quick: $(BUILD)/libcerrcore.a
	$(CC) $(CSTD) $(WARN) -O2 -Iinclude scripts/bench/quick_bench.c $(BUILD)/libcerrcore.a -o $(BUILD)/quick_bench
	./$(BUILD)/quick_bench
