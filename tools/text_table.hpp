// A plain text table for terminal output: columns sized to their widest cell.
#pragma once

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

namespace tilecl::tool {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) : rows_{std::move(header)} {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }

  void print(std::ostream& out) const {
    std::vector<std::size_t> widths;
    for (const auto& row : rows_) {
      if (widths.size() < row.size()) widths.resize(row.size(), 0);
      for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
    }
    for (std::size_t r = 0; r < rows_.size(); ++r) {
      for (std::size_t c = 0; c < rows_[r].size(); ++c) {
        out << rows_[r][c];
        if (c + 1 < rows_[r].size()) out << std::string(widths[c] - rows_[r][c].size() + 2, ' ');
      }
      out << "\n";
      if (r == 0) {
        std::size_t total = 0;
        for (auto w : widths) total += w + 2;
        out << std::string(total > 2 ? total - 2 : 0, '-') << "\n";
      }
    }
  }

 private:
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace tilecl::tool
