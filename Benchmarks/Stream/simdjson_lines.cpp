// simdjson_lines.cpp: what a C++ user would write to classify a JSONL stream of response
// envelopes with simdjson's On-Demand API (Debian's libsimdjson-dev): read the input in large
// blocks, find each line with memchr, parse it, read "ret" as int64 and count a histogram of
// codes. Lines that do not parse, or have no integer "ret", are counted as errors (without a
// reason). On-Demand reads only what it is asked for, so it does not validate the rest of a line.
//
//   g++ -O3 -std=c++17 simdjson_lines.cpp -lsimdjson -o simdjson_lines
//   ./simdjson_lines FILE     (or - / nothing for standard input)
#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <unordered_map>
#include <utility>
#include <vector>

int main(int argc, char **argv) {
    int fd = 0;
    if (argc > 1 && std::strcmp(argv[1], "-") != 0) {
        fd = open(argv[1], O_RDONLY);
        if (fd < 0) {
            std::perror(argv[1]);
            return 1;
        }
    }
    // The block keeps SIMDJSON_PADDING spare bytes after its data, as simdjson requires.
    size_t capacity = size_t(1) << 20;
    std::vector<char> block(capacity + simdjson::SIMDJSON_PADDING);
    size_t start = 0, end = 0;
    bool eof = false;
    simdjson::ondemand::parser parser;
    std::unordered_map<int64_t, uint64_t> histogram;
    uint64_t lines = 0, errors = 0;
    auto handle = [&](const char *line, size_t length) {
        lines++;
        if (length > 0 && line[length - 1] == '\r') length--;
        // The bytes after the line up to the end of the block are readable padding.
        size_t room = size_t(block.data() + block.size() - line);
        int64_t code;
        auto doc = parser.iterate(line, length, room);
        if (doc.error() || doc["ret"].get_int64().get(code)) {
            errors++;
            return;
        }
        histogram[code]++;
    };
    while (true) {
        const char *base = block.data();
        const char *newline = static_cast<const char *>(std::memchr(base + start, '\n', end - start));
        if (newline) {
            handle(base + start, size_t(newline - (base + start)));
            start = size_t(newline - base) + 1;
            continue;
        }
        if (eof) {
            if (end > start) handle(base + start, end - start);
            break;
        }
        // Move the partial line to the front; grow when one line fills the block.
        std::memmove(block.data(), block.data() + start, end - start);
        end -= start;
        start = 0;
        if (end == capacity) {
            capacity *= 2;
            block.resize(capacity + simdjson::SIMDJSON_PADDING);
        }
        ssize_t got = read(fd, block.data() + end, capacity - end);
        if (got < 0) {
            std::perror("read");
            return 1;
        }
        if (got == 0) eof = true;
        end += size_t(got);
        std::memset(block.data() + end, 0, simdjson::SIMDJSON_PADDING);
    }
    std::vector<std::pair<int64_t, uint64_t>> top(histogram.begin(), histogram.end());
    std::sort(top.begin(), top.end(), [](auto &a, auto &b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    std::printf("lines %llu, errors %llu, distinct codes %zu\n", (unsigned long long)lines,
                (unsigned long long)errors, top.size());
    for (size_t i = 0; i < top.size() && i < 5; i++)
        std::printf("  %lld %llu\n", (long long)top[i].first, (unsigned long long)top[i].second);
    return 0;
}
