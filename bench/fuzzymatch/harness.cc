// Timing harness for SYSTRAN's FuzzyMatch: loads a .fmi index once, then looks up each line of a query
// file, one at a time on one thread, and writes one line per query: milliseconds, number of matches,
// best score (or -1 when none).
//
// It calls the library as FuzzyMatch-cli does for `-a match` (cli/src/FuzzyMatch-cli.cc, processor::match):
// FuzzyMatch::match(sentence, fuzzy, nmatch, no_perfect, matches, ml, mr, idf_penalty, edit_costs,
// contrast, reduce, contrast_buffer) on the raw line, so the timed span includes tokenization and
// normalization, as Tessera's bench times its own tokenization. It leaves out what the CLI does after:
// formatting the matches as text.
//
//   fm-harness --index CORPUS.fmi --queries queries.txt [--fuzzy 0.75] [--nmatch 10] [--ml 3] [--mr 0.3]
//              [--warmup 200] > per-query.tsv
//
// Defaults are the CLI's, except --fuzzy and --nmatch, which default to Tessera's bench (75 %, 10).
// Summary lines (index load time, RSS after load) go to stderr as `KEY<TAB>value`.
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/algorithm/string.hpp>

#include <fuzzy/costs.hh>
#include <fuzzy/fuzzy_match.hh>
#include <fuzzy/fuzzy_matcher_binarization.hh>

namespace {

struct Options {
  std::string index;
  std::string queries;
  float fuzzy = 0.75f;             // CLI default 0.8
  int nmatch = 10;                 // CLI default 5
  int min_subseq_length = 3;       // --ml
  float min_subseq_ratio = 0.3f;   // --mr
  bool no_perfect = false;         // -P
  float idf_penalty = 0;           // -I
  float insert_cost = 1;
  float delete_cost = 1;
  float replace_cost = 1;
  float contrast = 0;
  std::string contrast_reduce = "mean";
  int contrast_buffer = -1;
  std::string penalty_tokens = "nbr,tag,cas";  // stored in the index; the index's value wins on load
  size_t max_tokens_in_pattern = fuzzy::DEFAULT_MAX_TOKENS_IN_PATTERN;  // likewise
  // Looked up untimed before the timed queries, WARMUP_PASSES times each, as Tessera's engine bench does
  // (--warmup-file); without one, the first N timed queries once (--warmup N).
  std::string warmup_file;
  size_t warmup_passes = 4;
  size_t warmup = 0;
};

[[noreturn]] void usage(const std::string& message) {
  std::cerr << "fm-harness: " << message << "\n"
            << "usage: fm-harness --index CORPUS.fmi --queries FILE [--fuzzy F] [--nmatch N] [--ml N]"
               " [--mr R] [--no-perfect] [--idf-penalty X] [--insert-cost C] [--delete-cost C]"
               " [--replace-cost C] [--contrast X] [--contrast-reduce mean|max] [--contrast-buffer N]"
               " [--penalty-tokens LIST] [--max-tokens-in-pattern N] [--warmup N]"
               " [--warmup-file FILE] [--warmup-passes N]\n";
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; i++) {
    const std::string arg = argv[i];
    if (arg == "--no-perfect" || arg == "-P") {
      o.no_perfect = true;
      continue;
    }
    if (i + 1 >= argc) usage("missing value after " + arg);
    const std::string value = argv[++i];
    if (arg == "--index" || arg == "-i") o.index = value;
    else if (arg == "--queries") o.queries = value;
    else if (arg == "--fuzzy" || arg == "-f") o.fuzzy = std::stof(value);
    else if (arg == "--nmatch" || arg == "-n") o.nmatch = std::stoi(value);
    else if (arg == "--ml") o.min_subseq_length = std::stoi(value);
    else if (arg == "--mr") o.min_subseq_ratio = std::stof(value);
    else if (arg == "--idf-penalty" || arg == "-I") o.idf_penalty = std::stof(value);
    else if (arg == "--insert-cost") o.insert_cost = std::stof(value);
    else if (arg == "--delete-cost") o.delete_cost = std::stof(value);
    else if (arg == "--replace-cost") o.replace_cost = std::stof(value);
    else if (arg == "--contrast") o.contrast = std::stof(value);
    else if (arg == "--contrast-reduce") o.contrast_reduce = value;
    else if (arg == "--contrast-buffer") o.contrast_buffer = std::stoi(value);
    else if (arg == "--penalty-tokens" || arg == "-p") o.penalty_tokens = value;
    else if (arg == "--max-tokens-in-pattern") o.max_tokens_in_pattern = std::stoul(value);
    else if (arg == "--warmup") o.warmup = std::stoul(value);
    else if (arg == "--warmup-file") o.warmup_file = value;
    else if (arg == "--warmup-passes") o.warmup_passes = std::stoul(value);
    else usage("unknown option " + arg);
  }
  if (o.index.empty() || o.queries.empty()) usage("--index and --queries are required");
  return o;
}

// The CLI's parsing of --penalty-tokens.
int penalty_tokens(const std::string& list) {
  int pt = fuzzy::FuzzyMatch::pt_none;
  if (list == "none") return pt;
  std::vector<std::string> names;
  boost::split(names, list, boost::is_any_of(","));
  for (const auto& name : names) {
    int one = fuzzy::FuzzyMatch::pt_none;
    if (name == "tag") one = fuzzy::FuzzyMatch::pt_tag;
    else if (name == "sep") one = fuzzy::FuzzyMatch::pt_sep;
    else if (name == "jnr") one = fuzzy::FuzzyMatch::pt_jnr;
    else if (name == "nbr") one = fuzzy::FuzzyMatch::pt_nbr;
    else if (name == "cas") one = fuzzy::FuzzyMatch::pt_cas;
    else if (name == "pct") one = fuzzy::FuzzyMatch::pt_pct;
    if (!one || (pt & one)) usage("bad --penalty-tokens value " + name);
    pt |= one;
  }
  return pt;
}

// A line of /proc/self/status in MiB (VmRSS, VmHWM).
double proc_status_mib(const std::string& key) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.compare(0, key.size() + 1, key + ":") == 0) return std::stod(line.substr(key.size() + 1)) / 1024;
  return -1;
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);

  auto read_lines = [](const std::string& file) {
    std::vector<std::string> lines;
    std::ifstream in(file);
    if (!in) usage("cannot read " + file);
    std::string line;
    while (std::getline(in, line)) lines.push_back(line);
    return lines;
  };
  const std::vector<std::string> queries = read_lines(o.queries);
  const std::vector<std::string> warmup_queries =
      o.warmup_file.empty() ? std::vector<std::string>() : read_lines(o.warmup_file);

  const double rss_before = proc_status_mib("VmRSS");
  auto start = std::chrono::steady_clock::now();
  fuzzy::FuzzyMatch matcher(penalty_tokens(o.penalty_tokens), o.max_tokens_in_pattern);
  fuzzy::import_binarized_fuzzy_matcher(o.index, matcher);
  const double load_ms = ms_since(start);
  const double rss_after = proc_status_mib("VmRSS");
  std::cerr << "LOAD_MS\t" << load_ms << "\n"
            << "RSS_BEFORE_LOAD_MB\t" << rss_before << "\n"
            << "RSS_AFTER_LOAD_MB\t" << rss_after << "\n"
            << "MAX_TOKENS_IN_PATTERN\t" << matcher.max_tokens_in_pattern() << "\n";

  const fuzzy::EditCosts costs(o.insert_cost, o.delete_cost, o.replace_cost);
  const fuzzy::ContrastReduce reduce =
      o.contrast_reduce == "max" ? fuzzy::ContrastReduce::MAX : fuzzy::ContrastReduce::MEAN;
  auto lookup = [&](const std::string& sentence, std::vector<fuzzy::FuzzyMatch::Match>& matches) {
    matcher.match(sentence, o.fuzzy, o.nmatch, o.no_perfect, matches, o.min_subseq_length,
                  o.min_subseq_ratio, o.idf_penalty, costs, o.contrast, reduce, o.contrast_buffer);
  };

  for (size_t pass = 0; pass < o.warmup_passes; pass++)
    for (const auto& q : warmup_queries) {
      std::vector<fuzzy::FuzzyMatch::Match> matches;
      lookup(q, matches);
    }
  for (size_t i = 0; i < o.warmup && i < queries.size(); i++) {
    std::vector<fuzzy::FuzzyMatch::Match> matches;
    lookup(queries[i], matches);
  }

  std::vector<double> times(queries.size());
  std::vector<size_t> counts(queries.size());
  std::vector<float> best(queries.size(), -1);
  for (size_t i = 0; i < queries.size(); i++) {
    std::vector<fuzzy::FuzzyMatch::Match> matches;
    start = std::chrono::steady_clock::now();
    lookup(queries[i], matches);
    times[i] = ms_since(start);
    counts[i] = matches.size();
    if (!matches.empty()) best[i] = matches.front().score;
  }

  std::cout.precision(6);
  for (size_t i = 0; i < queries.size(); i++)
    std::cout << std::fixed << times[i] << '\t' << counts[i] << '\t' << best[i] << '\n';
  std::cerr << "RSS_AFTER_QUERIES_MB\t" << proc_status_mib("VmRSS") << "\n"
            << "PEAK_RSS_MB\t" << proc_status_mib("VmHWM") << "\n";
  return 0;
}
