#pragma once
// What the framework models share (src/frameworks/<name>.cpp): reading the
// image's tree, finding a tool among candidate paths, and what dlopen(name)
// from an extension module maps. Private to src/frameworks.
#include <string>
#include <string_view>
#include <vector>

#include "cuvet/frameworks/framework.hpp"
#include "cuvet/inventory/analysis.hpp"
#include "cuvet/loader/loader.hpp"
#include "cuvet/stack/stack.hpp"

namespace cuvet::frameworks::detail {

bool starts_with(std::string_view s, std::string_view head);
std::string dir_name(std::string_view path);
std::string normal(const std::string& path);  // lexically normal, no trailing '/'
bool is_file(const inventory::Analysis& analysis, const std::string& path);
bool is_dir(const inventory::Analysis& analysis, const std::string& path);
std::vector<std::string> path_dirs(const Environment& env);  // PATH's non-empty dirs

// The inventory component `name` installed in site-packages dir `site`.
const inventory::Component* sibling(const inventory::Inventory& inventory, std::string_view name,
                                    const std::string& site);
std::string attribute(const inventory::Component& c, const std::string& key);
// The component's "requires:<dist>" pins, as the framework's.
void copy_pins(const inventory::Component& c, stack::FrameworkInstall& fw);

// The first candidate that exists (a directory when `directory`), every one searched.
stack::FrameworkTool find_tool(const inventory::Analysis& analysis, std::string name,
                               std::vector<std::string> candidates, bool directory);

// The CUDA release a compiler's banner states, read during the scan ("12.8.93");
// "" when the file was not read as ELF or states none.
std::string compiler_release(const inventory::Analysis& analysis, const std::string& path);

// What dlopen(name) from `requester` maps, and the DT_NEEDED under it that do
// not resolve (a library whose dependency is missing does not load either).
stack::FrameworkLoad open_from(const loader::Loader& loader, const std::string& requester,
                               const std::string& component, const std::string& name);

}  // namespace cuvet::frameworks::detail
