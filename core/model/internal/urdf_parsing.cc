#include "core/model/internal/urdf_parsing.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <urdf_parser/urdf_parser.h>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/diagnostics/untrusted_text.h"
#include "core/model/internal/urdf_xml_precheck.h"
#include "core/model/internal/urdfdom_logging.h"

namespace motion {
namespace {

// TinyXML (under urdfdom) recurses once per element level, so the nesting
// depth must be known before it parses. A loose scan for '<' and '>' can be
// made to under-count (a "/>" inside a quoted value, stray end tags before
// the root, "&#x...x;" references that TinyXML reads across markup, UTF-8
// lead bytes it steps over), so this follows TinyXML 2.6's own grammar
// (tinyxmlparser.cpp: Identify, TiXmlElement::Parse / ReadValue,
// TiXmlDeclaration::Parse) without recursing, and refuses what it does not
// model: numeric character references and malformed UTF-8 in text or
// attribute values, and an XML declaration that is not plain name="value".
class XmlDepthScan {
 public:
  XmlDepthScan(absl::string_view text, int limit)
      : s_(text.substr(0, text.find('\0'))), limit_(limit) {}  // TinyXML stops at NUL

  /// Deepest element nesting (stops counting past `limit`), or an error.
  absl::StatusOr<int> Run() {
    while (i_ < s_.size() && static_cast<int>(open_.size()) <= limit_) {
      if (!Node()) return absl::InvalidArgumentError(error_);
    }
    return max_depth_;
  }

 private:
  static bool IsSpace(char c) {  // TinyXML's IsWhiteSpace (C locale)
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
  }
  static bool IsNameStart(char c) {  // TinyXML's IsAlpha: bytes >= 127 are letters
    const unsigned char u = static_cast<unsigned char>(c);
    return u >= 127 || ((u | 0x20) >= 'a' && (u | 0x20) <= 'z') || c == '_';
  }
  static bool IsNameChar(char c) {
    return IsNameStart(c) || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == ':';
  }

  bool Fail(absl::string_view why) {
    error_ = absl::StrCat("urdf: malformed XML at byte ", i_, ": ", why);
    return false;
  }
  bool At(absl::string_view prefix) const { return s_.substr(i_, prefix.size()) == prefix; }
  void SkipSpace() {
    while (i_ < s_.size() && IsSpace(s_[i_])) ++i_;
  }
  std::size_t SkipName() {
    const std::size_t start = i_;
    if (i_ < s_.size() && IsNameStart(s_[i_])) {
      while (i_ < s_.size() && IsNameChar(s_[i_])) ++i_;
    }
    return i_ - start;
  }
  std::size_t Find(absl::string_view what, std::size_t from) const {
    const std::size_t at = s_.find(what, from);
    return at == absl::string_view::npos ? s_.size() : at;
  }

  // Text or a quoted value up to `end`. TinyXML reads "&#...;" and (in UTF-8
  // mode) a multi-byte sequence as one character, skipping whatever bytes
  // they cover; with those refused or well formed, `end` is where it stops.
  bool SkipCharacters(char end) {
    while (i_ < s_.size() && s_[i_] != end) {
      const unsigned char c = static_cast<unsigned char>(s_[i_]);
      if (c == '&' && i_ + 1 < s_.size() && s_[i_ + 1] == '#') {
        return Fail("numeric character references (&#...;) are not supported");
      }
      const std::size_t length = c >= 0xC2 && c <= 0xDF   ? 2
                                 : c >= 0xE0 && c <= 0xEF ? 3
                                 : c >= 0xF0 && c <= 0xF4 ? 4
                                                          : 1;
      for (std::size_t k = 1; k < length; ++k) {
        if (i_ + k >= s_.size() || (static_cast<unsigned char>(s_[i_ + k]) & 0xC0) != 0x80) {
          return Fail("malformed UTF-8");
        }
      }
      i_ += length;
    }
    return true;
  }

  bool Node() {
    if (s_[i_] != '<') {
      if (open_.empty()) {  // TinyXML stops at text outside elements; going on over-counts
        i_ = Find("<", i_);
        return true;
      }
      return SkipCharacters('<');
    }
    if (!open_.empty() && At("</")) {  // TiXmlElement::Parse wants exactly "</name>"
      const absl::string_view name = open_.back();
      if (s_.substr(i_ + 2, name.size() + 1) != absl::StrCat(name, ">")) {
        return Fail(absl::StrCat("expected </", name, ">"));
      }
      i_ += name.size() + 3;
      open_.pop_back();
      return true;
    }
    if (s_.size() - i_ >= 5 && absl::AsciiStrToLower(s_.substr(i_, 5)) == "<?xml") {
      return Declaration();
    }
    if (At("<!--")) return SkipPast("-->", i_ + 4, "unterminated comment");
    if (At("<![CDATA[")) return SkipPast("]]>", i_ + 9, "unterminated CDATA section");
    if (i_ + 1 < s_.size() && IsNameStart(s_[i_ + 1])) return Element();
    // "<!DOCTYPE", "<?pi", "</x>" outside any element...: TiXmlUnknown, up to '>'.
    return SkipPast(">", i_ + 1, "unterminated markup");
  }

  bool SkipPast(absl::string_view end, std::size_t from, absl::string_view error) {
    const std::size_t at = s_.find(end, from);
    if (at == absl::string_view::npos) return Fail(error);
    i_ = at + end.size();
    return true;
  }

  bool Element() {
    ++i_;
    const std::size_t start = i_;
    const absl::string_view name = s_.substr(start, SkipName());
    for (;;) {
      SkipSpace();
      if (i_ >= s_.size()) return Fail("unterminated start tag");
      if (s_[i_] == '/') {
        if (!At("/>")) return Fail("'/' not followed by '>' in a start tag");
        i_ += 2;
        return true;
      }
      if (s_[i_] == '>') {
        ++i_;
        open_.push_back(name);
        max_depth_ = std::max(max_depth_, static_cast<int>(open_.size()));
        return true;
      }
      if (SkipName() == 0) return Fail("expected an attribute name");
      SkipSpace();
      if (i_ >= s_.size() || s_[i_] != '=') return Fail("expected '=' after an attribute name");
      ++i_;
      SkipSpace();
      if (i_ >= s_.size()) return Fail("unterminated start tag");
      if (s_[i_] == '"' || s_[i_] == '\'') {
        const char quote = s_[i_++];
        if (!SkipCharacters(quote)) return false;
        if (i_ >= s_.size()) return Fail("unterminated attribute value");
        ++i_;
        continue;
      }
      // TinyXML accepts unquoted values up to white space, '/' or '>'.
      while (i_ < s_.size() && !IsSpace(s_[i_]) && s_[i_] != '/' && s_[i_] != '>') {
        if (s_[i_] == '"' || s_[i_] == '\'') return Fail("quote inside an unquoted value");
        ++i_;
      }
    }
  }

  // <?xml name="value" ...?>, values without quotes, spaces, '<', '>', '&'
  // or non-ASCII, so TinyXML's declaration parser ends at the same "?>".
  bool Declaration() {
    i_ += 5;
    // TinyXML takes any "<?xml..." for a declaration ("<?xml-stylesheet"
    // too) and skips the rest of the target like an unknown word.
    while (i_ < s_.size() && IsNameChar(s_[i_])) ++i_;
    for (;;) {
      SkipSpace();
      if (At("?>")) {
        i_ += 2;
        return true;
      }
      if (SkipName() == 0) return Fail("unsupported XML declaration");
      SkipSpace();
      if (!At("=")) return Fail("unsupported XML declaration");
      ++i_;
      SkipSpace();
      if (!At("\"") && !At("'")) return Fail("unsupported XML declaration");
      const char quote = s_[i_++];
      while (i_ < s_.size() && s_[i_] != quote) {
        const char c = s_[i_];
        if (c == '"' || c == '\'' || c == '<' || c == '>' || c == '&' || IsSpace(c) ||
            static_cast<unsigned char>(c) >= 0x80) {
          return Fail("unsupported XML declaration");
        }
        ++i_;
      }
      if (i_ >= s_.size()) return Fail("unterminated XML declaration");
      ++i_;
    }
  }

  absl::string_view s_;
  int limit_;
  std::size_t i_ = 0;
  int max_depth_ = 0;
  std::vector<absl::string_view> open_;  ///< names of the open elements
  std::string error_;
};

// What urdfdom accepts and a chain cannot use. Every number is already
// finite (PrecheckUrdfXml refuses any other, and urdfdom's defaults are).
absl::Status CheckJoint(const urdf::Joint& joint) {
  const bool movable = joint.type == urdf::Joint::REVOLUTE ||
                       joint.type == urdf::Joint::CONTINUOUS ||
                       joint.type == urdf::Joint::PRISMATIC;
  if (movable) {
    const auto& a = joint.axis;
    if (std::sqrt(a.x * a.x + a.y * a.y + a.z * a.z) < 1e-12) {
      return absl::InvalidArgumentError(
          absl::StrCat("joint ", QuoteUntrusted(joint.name), ": <axis xyz=\"", a.x, " ", a.y, " ",
                       a.z, "\"> must be a non-zero vector for a movable joint"));
    }
  }
  if (joint.limits) {
    const auto& l = *joint.limits;
    if (joint.type != urdf::Joint::CONTINUOUS && l.lower > l.upper) {
      return absl::InvalidArgumentError(absl::StrCat("joint ", QuoteUntrusted(joint.name),
                                                     ": <limit lower=", l.lower,
                                                     "> is above upper=", l.upper));
    }
    if (l.velocity < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "joint ", QuoteUntrusted(joint.name), ": <limit velocity=", l.velocity, "> is negative"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckMimics(const urdf::ModelInterface& model) {
  for (const auto& [name, joint] : model.joints_) {
    if (!joint->mimic) continue;
    // Follow mimic -> master links; more steps than joints means a cycle.
    std::string current = name;
    for (std::size_t steps = 0;; ++steps) {
      const auto it = model.joints_.find(current);
      if (it == model.joints_.end()) {
        return absl::InvalidArgumentError(absl::StrCat("joint ", QuoteUntrusted(name),
                                                       ": <mimic joint=", QuoteUntrusted(current),
                                                       "> names a joint that does not exist"));
      }
      if (!it->second->mimic) break;
      if (steps > model.joints_.size()) {
        return absl::InvalidArgumentError(
            absl::StrCat("joint ", QuoteUntrusted(name), ": <mimic> joints form a cycle"));
      }
      current = it->second->mimic->joint_name;
    }
  }
  return absl::OkStatus();
}

// urdfdom links parent to child with shared pointers (child_links,
// child_joints, parent_joint); a cycle among them would keep every link of
// it alive after the model is dropped. Clearing them when the last owner
// lets go frees the links whatever their graph, on every path that drops a
// model: rejected by a later check, evicted, or never used.
std::shared_ptr<urdf::ModelInterface> WithLinkTreeReleasedOnDelete(
    std::shared_ptr<urdf::ModelInterface> model) {
  urdf::ModelInterface* raw = model.get();
  return std::shared_ptr<urdf::ModelInterface>(
      raw, [owner = std::move(model)](urdf::ModelInterface* m) mutable {
        for (auto& [name, link] : m->links_) {
          link->child_links.clear();
          link->child_joints.clear();
          link->parent_joint.reset();
        }
        m->root_link_.reset();
        owner.reset();
      });
}

}  // namespace

// Every model error is about the `urdf` field of the request.
static absl::Status UnderUrdf(const absl::Status& status) {
  if (absl::StartsWith(status.message(), "urdf:")) return status;
  return absl::Status(status.code(), absl::StrCat("urdf: ", status.message()));
}

absl::StatusOr<std::shared_ptr<urdf::ModelInterface>> ParseUrdf(absl::string_view urdf_text,
                                                                const ModelLimits& limits) {
  if (urdf_text.empty()) return absl::InvalidArgumentError("urdf: empty");
  if (urdf_text.size() > limits.max_urdf_bytes) {
    return absl::InvalidArgumentError(absl::StrCat("urdf: ", urdf_text.size(),
                                                   " bytes exceeds the limit of ",
                                                   limits.max_urdf_bytes, " bytes"));
  }
  const absl::StatusOr<int> depth = XmlDepthScan(urdf_text, limits.max_xml_depth).Run();
  if (!depth.ok()) return depth.status();
  if (*depth > limits.max_xml_depth) {
    return absl::InvalidArgumentError(absl::StrCat("urdf: XML elements nest more than ",
                                                   limits.max_xml_depth, " deep (the limit)"));
  }

  if (auto status = PrecheckUrdfXml(urdf_text, limits); !status.ok()) return status;

  DisableUrdfdomLogFormatting();
  std::shared_ptr<urdf::ModelInterface> parsed;
  try {
    parsed = urdf::parseURDF(std::string(urdf_text));
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat("urdf: urdfdom failed with an exception: ", QuoteUntrusted(e.what())));
  }
  if (!parsed) {
    // Everything urdfdom is known to refuse was checked above; its own
    // message is never produced (it would format URDF text as printf).
    return absl::InvalidArgumentError(
        "urdf: urdfdom refused the file for a reason motiond does not check itself");
  }
  const std::shared_ptr<urdf::ModelInterface> model =
      WithLinkTreeReleasedOnDelete(std::move(parsed));
  // The link count, one parent per link and one tree from the root were
  // checked on the same XML before urdfdom built anything.
  if (!model->getRoot()) return absl::InvalidArgumentError("urdf: no root link");
  for (const auto& [name, joint] : model->joints_) {
    if (auto status = CheckJoint(*joint); !status.ok()) return UnderUrdf(status);
  }
  if (auto status = CheckMimics(*model); !status.ok()) return UnderUrdf(status);
  return model;
}

}  // namespace motion
