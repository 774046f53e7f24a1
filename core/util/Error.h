#pragma once
// Errors raised by core on bad input: always say which file, line and column.
#include <stdexcept>
#include <string>

namespace prunescope {

// An input error with a location. line/column are 1-based; 0 means "unknown".
class InputError : public std::runtime_error {
  public:
    InputError(std::string file, int line, int column, const std::string& what)
        : std::runtime_error(format(file, line, column, what)), file_(std::move(file)), line_(line),
          column_(column) {}
    const std::string& file() const { return file_; }
    int line() const { return line_; }
    int column() const { return column_; }

  private:
    static std::string format(const std::string& file, int line, int column,
                              const std::string& what) {
        std::string s = file.empty() ? std::string("<input>") : file;
        if (line > 0) s += ":" + std::to_string(line);
        if (column > 0) s += ":" + std::to_string(column);
        return s + ": " + what;
    }
    std::string file_;
    int line_ = 0;
    int column_ = 0;
};

} // namespace prunescope
