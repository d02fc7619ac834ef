// simdjson_lines.cpp: what a C++ user would write to classify a JSONL stream of responses with
// simdjson's On-Demand API (Debian's libsimdjson-dev): read the input in large blocks, find each
// line with memchr, parse it, read the code and count a histogram of codes. On-Demand reads only
// what it is asked for, so it does not validate the rest of a line. Three shapes:
//
//   ret      "ret" as int64 (SwiftErr's envelope); a line without one is an error
//   aip193   Google's AIP-193: a line without "error" is a success; otherwise the first element
//            of "error.details" whose "@type" is google.rpc.ErrorInfo gives "domain" and
//            "reason", counted as one key; an error without one is an error
//   stripe   Stripe's: a line without "error" is a success; otherwise "error.code", a string
//
// String keys are counted in an unordered_map<std::string, ...>, looked up through one reused
// buffer (no allocation per line once the buffer has grown). Lines that do not parse are errors
// (without a reason).
//
//   g++ -O3 -std=c++17 simdjson_lines.cpp -lsimdjson -o simdjson_lines
//   ./simdjson_lines [--shape ret|aip193|stripe] [FILE]     (FILE: - or nothing for standard input)
#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <string_view>
#include <unistd.h>
#include <unordered_map>
#include <utility>
#include <vector>

enum class Shape { ret, aip193, stripe };

int main(int argc, char **argv) {
    Shape shape = Shape::ret;
    int arg = 1;
    if (argc > 2 && std::strcmp(argv[1], "--shape") == 0) {
        std::string_view name = argv[2];
        if (name == "ret") shape = Shape::ret;
        else if (name == "aip193") shape = Shape::aip193;
        else if (name == "stripe") shape = Shape::stripe;
        else {
            std::fprintf(stderr, "simdjson_lines: unknown shape %s (ret, aip193 or stripe)\n", argv[2]);
            return 2;
        }
        arg = 3;
    }
    int fd = 0;
    if (argc > arg && std::strcmp(argv[arg], "-") != 0) {
        fd = open(argv[arg], O_RDONLY);
        if (fd < 0) {
            std::perror(argv[arg]);
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
    std::unordered_map<std::string, uint64_t> strings;
    std::string key;
    uint64_t lines = 0, errors = 0, successes = 0;
    // The string code of a line in the aip193 or stripe shape into `key`: 1 found, 0 a success
    // (no "error"), -1 an error.
    auto string_code = [&](simdjson::ondemand::document &doc) -> int {
        simdjson::ondemand::object error;
        auto field = doc["error"];
        if (field.error() == simdjson::NO_SUCH_FIELD) return 0;
        if (field.get_object().get(error)) return -1;
        if (shape == Shape::stripe) {
            std::string_view code;
            if (error["code"].get_string().get(code)) return -1;
            key.assign(code);
            return 1;
        }
        simdjson::ondemand::array details;
        if (error["details"].get_array().get(details)) return -1;
        for (auto element : details) {
            simdjson::ondemand::object detail;
            std::string_view type, domain, reason;
            if (element.get_object().get(detail)) return -1;
            if (detail["@type"].get_string().get(type)) return -1;
            if (type != "type.googleapis.com/google.rpc.ErrorInfo") continue;
            if (detail["reason"].get_string().get(reason)) return -1;
            key.assign(reason);
            if (detail["domain"].get_string().get(domain)) return -1;
            key.push_back('\0');
            key.append(domain);
            return 1;
        }
        return -1;
    };
    auto handle = [&](const char *line, size_t length) {
        lines++;
        if (length > 0 && line[length - 1] == '\r') length--;
        // The bytes after the line up to the end of the block are readable padding.
        size_t room = size_t(block.data() + block.size() - line);
        simdjson::ondemand::document doc;
        if (parser.iterate(line, length, room).get(doc)) {
            errors++;
            return;
        }
        if (shape == Shape::ret) {
            int64_t code;
            if (doc["ret"].get_int64().get(code)) {
                errors++;
                return;
            }
            histogram[code]++;
            return;
        }
        int found = string_code(doc);
        if (found < 0) {
            errors++;
        } else if (found == 0) {
            successes++;
        } else {
            strings[key]++;
        }
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
    if (shape != Shape::ret) {
        std::vector<std::pair<std::string, uint64_t>> top(strings.begin(), strings.end());
        std::sort(top.begin(), top.end(), [](auto &a, auto &b) {
            return a.second != b.second ? a.second > b.second : a.first < b.first;
        });
        std::printf("lines %llu, errors %llu, successes %llu, distinct codes %zu\n", (unsigned long long)lines,
                    (unsigned long long)errors, (unsigned long long)successes, top.size());
        for (size_t i = 0; i < top.size() && i < 5; i++)
            std::printf("  %s %llu\n", top[i].first.c_str(), (unsigned long long)top[i].second);
        return 0;
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
