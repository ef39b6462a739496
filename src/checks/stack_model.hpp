#pragma once
// The checks read the Stack (src/stack, a module below them) by its short names.
#include "cuvet/stack/stack.hpp"
#include "cuvet/stack/stack_facts.hpp"

namespace cuvet::checks {

using stack::ElfObject;
using stack::EntryStart;
using stack::FrameworkInstall;
using stack::FrameworkLoad;
using stack::FrameworkTool;
using stack::LibraryCopy;
using stack::NodePool;
using stack::Resolution;
using stack::Root;
using stack::Stack;
using stack::Targets;

using stack::pools_with_driver;
using stack::pools_with_gpu;

}  // namespace cuvet::checks
