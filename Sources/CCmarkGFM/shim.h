#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm-core-extensions.h>

// Exported by libcmark-gfm-extensions.so but declared in no installed header. Its value is assigned when
// the core extensions register; a mutable C global cannot be read from Swift 6, hence the getter.
extern cmark_node_type CMARK_NODE_STRIKETHROUGH;
static inline cmark_node_type ccmark_node_strikethrough(void) { return CMARK_NODE_STRIKETHROUGH; }

// Exported by libcmark-gfm.so, declared only in the internal cmark-gfm/inlines.h: runs the inline parser
// alone over a node's string content (the inline-only emulation, see the README).
struct cmark_map;
void cmark_parse_inlines(cmark_parser *parser, cmark_node *parent, struct cmark_map *refmap, int options);
