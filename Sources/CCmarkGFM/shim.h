#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm-core-extensions.h>

// Exported by libcmark-gfm-extensions.so but declared in no installed header. Its value is assigned when
// the core extensions register; a mutable C global cannot be read from Swift 6, hence the getter.
extern cmark_node_type CMARK_NODE_STRIKETHROUGH;
static inline cmark_node_type ccmark_node_strikethrough(void) { return CMARK_NODE_STRIKETHROUGH; }
// The table extension's node types, assigned when the core extensions register (read after that).
extern cmark_node_type CMARK_NODE_TABLE, CMARK_NODE_TABLE_ROW, CMARK_NODE_TABLE_CELL;
static inline cmark_node_type ccmark_node_table(void) { return CMARK_NODE_TABLE; }
static inline cmark_node_type ccmark_node_table_row(void) { return CMARK_NODE_TABLE_ROW; }
static inline cmark_node_type ccmark_node_table_cell(void) { return CMARK_NODE_TABLE_CELL; }

// Exported by libcmark-gfm.so, declared only in the internal cmark-gfm/inlines.h: runs the inline parser
// alone over a node's string content (the inline-only emulation, see the README).
struct cmark_map;
void cmark_parse_inlines(cmark_parser *parser, cmark_node *parent, struct cmark_map *refmap, int options);

// Reading an inline tree: a node's type, links, columns and literal bytes. Where the library's own headers are
// installed (Debian's libcmark-gfm-dev ships node.h beside the public ones, from the same build as the library),
// they are read from the node itself: cmark_node_get_literal copies each text node's bytes into a new
// NUL-terminated buffer that strlen then measures again, and every accessor is a call into the library.
// Elsewhere the public functions answer.
#if __has_include(<cmark-gfm/node.h>) && !defined(UNFOLD_CMARK_PUBLIC_API_ONLY)
#include <cmark-gfm/node.h>
static inline cmark_node_type unfold_node_type(cmark_node *node) { return (cmark_node_type)node->type; }
static inline cmark_node *unfold_node_first_child(cmark_node *node) { return node->first_child; }
static inline cmark_node *unfold_node_last_child(cmark_node *node) { return node->last_child; }
static inline cmark_node *unfold_node_next(cmark_node *node) { return node->next; }
static inline cmark_node *unfold_node_parent(cmark_node *node) { return node->parent; }
static inline int unfold_node_start_column(cmark_node *node) { return node->start_column; }
static inline int unfold_node_end_column(cmark_node *node) { return node->end_column; }
// The literal of a text, code or inline HTML node, in place: its bytes and their count (no terminator needed).
static inline const unsigned char *unfold_node_literal(cmark_node *node, int *length) {
  *length = node->as.literal.len;
  return node->as.literal.data;
}
// The destination of a link or an image, in place.
static inline const unsigned char *unfold_node_url(cmark_node *node, int *length) {
  *length = node->as.link.url.len;
  return node->as.link.url.data;
}
#else
// The node made a complete type, as node.h makes it, so that Swift sees a node pointer as the same type either way
// (an incomplete struct is an OpaquePointer there); nothing reads its fields.
struct cmark_node {
  char unfold_opaque;
};
#include <string.h>
static inline cmark_node_type unfold_node_type(cmark_node *node) { return cmark_node_get_type(node); }
static inline cmark_node *unfold_node_first_child(cmark_node *node) { return cmark_node_first_child(node); }
static inline cmark_node *unfold_node_last_child(cmark_node *node) { return cmark_node_last_child(node); }
static inline cmark_node *unfold_node_next(cmark_node *node) { return cmark_node_next(node); }
static inline cmark_node *unfold_node_parent(cmark_node *node) { return cmark_node_parent(node); }
static inline int unfold_node_start_column(cmark_node *node) { return cmark_node_get_start_column(node); }
static inline int unfold_node_end_column(cmark_node *node) { return cmark_node_get_end_column(node); }
static inline const unsigned char *unfold_node_literal(cmark_node *node, int *length) {
  const char *literal = cmark_node_get_literal(node);
  *length = literal ? (int)strlen(literal) : 0;
  return (const unsigned char *)literal;
}
static inline const unsigned char *unfold_node_url(cmark_node *node, int *length) {
  const char *url = cmark_node_get_url(node);
  *length = url ? (int)strlen(url) : 0;
  return (const unsigned char *)url;
}
#endif

// An arena for the inline parser's nodes and buffers, one chunk at a time (cmark_parser_new_with_mem with
// unfold_arena_allocator()). Between unfold_arena_begin() and unfold_arena_end() on a thread, what cmark allocates
// through it on that thread is carved from blocks that unfold_arena_end() frees (or empties) at once, and freeing
// one of those allocations does nothing: cmark makes and frees a tree node by node, and malloc and free were a
// fifth of parsing. Outside that span it allocates from the heap: the parser's own buffers, which outlive a chunk. Every
// allocation carries a header with its size and where it lives; a pointer with neither mark is not this
// allocator's, and freeing it aborts rather than corrupt the heap. The state is per thread, since the functions
// cmark calls take no context: a tree is made, read and freed on the thread that began the span.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct unfold_arena_block {
  struct unfold_arena_block *next;
  size_t capacity;  // bytes after this header
  size_t used;
  size_t last;  // the offset of the last allocation's header, which may grow in place
} unfold_arena_block;

typedef struct {
  size_t size;  // the bytes usable after the header
  uint64_t origin;
} unfold_arena_header;

#define UNFOLD_ARENA_IN_BLOCK 0x6b636f6c626e6661ULL
#define UNFOLD_ARENA_ON_HEAP 0x7061656868656661ULL
#define UNFOLD_ARENA_FIRST_BLOCK ((size_t)16384)
#define UNFOLD_ARENA_LARGEST_BLOCK ((size_t)1 << 20)

typedef struct {
  unfold_arena_block *blocks;  // the newest first
  int active;
} unfold_arena_state;

// This thread's arena (a variable inside a function: Swift emits the functions of a header it imports, not its
// variables).
static inline unfold_arena_state *unfold_arena_here(void) {
  static _Thread_local unfold_arena_state state;
  return &state;
}

static inline unfold_arena_header *unfold_arena_header_of(void *pointer) {
  unfold_arena_header *header = (unfold_arena_header *)pointer - 1;
  if (header->origin != UNFOLD_ARENA_IN_BLOCK && header->origin != UNFOLD_ARENA_ON_HEAP) abort();
  return header;
}

static inline void *unfold_arena_heap(size_t size, int zeroed) {
  if (size > SIZE_MAX - sizeof(unfold_arena_header)) return NULL;
  unfold_arena_header *header = zeroed ? calloc(1, sizeof(unfold_arena_header) + size)
                                       : malloc(sizeof(unfold_arena_header) + size);
  if (!header) return NULL;
  header->size = size;
  header->origin = UNFOLD_ARENA_ON_HEAP;
  return header + 1;
}

static inline void *unfold_arena_carve(unfold_arena_state *arena, size_t size) {
  if (size > SIZE_MAX / 2) return NULL;
  size_t rounded = (size + 15) & ~(size_t)15;
  size_t need = sizeof(unfold_arena_header) + rounded;
  unfold_arena_block *block = arena->blocks;
  if (!block || block->capacity - block->used < need) {
    size_t capacity = block ? block->capacity * 2 : UNFOLD_ARENA_FIRST_BLOCK;
    if (capacity > UNFOLD_ARENA_LARGEST_BLOCK) capacity = UNFOLD_ARENA_LARGEST_BLOCK;
    if (capacity < need) capacity = need;
    unfold_arena_block *made = malloc(sizeof(unfold_arena_block) + capacity);
    if (!made) return NULL;
    made->next = block;
    made->capacity = capacity;
    made->used = 0;
    made->last = 0;
    arena->blocks = made;
    block = made;
  }
  unfold_arena_header *header = (unfold_arena_header *)((char *)(block + 1) + block->used);
  block->last = block->used;
  block->used += need;
  header->size = rounded;
  header->origin = UNFOLD_ARENA_IN_BLOCK;
  return header + 1;
}

static inline void *unfold_arena_calloc(size_t count, size_t size) {
  if (size && count > SIZE_MAX / size) return NULL;
  unfold_arena_state *arena = unfold_arena_here();
  if (!arena->active) return unfold_arena_heap(count * size, 1);
  void *pointer = unfold_arena_carve(arena, count * size);
  if (pointer) memset(pointer, 0, count * size);
  return pointer;
}

static inline void *unfold_arena_realloc(void *pointer, size_t size) {
  unfold_arena_state *arena = unfold_arena_here();
  if (!pointer) return arena->active ? unfold_arena_carve(arena, size) : unfold_arena_heap(size, 0);
  unfold_arena_header *header = unfold_arena_header_of(pointer);
  if (header->origin == UNFOLD_ARENA_ON_HEAP) {
    if (size > SIZE_MAX - sizeof(unfold_arena_header)) return NULL;
    unfold_arena_header *moved = realloc(header, sizeof(unfold_arena_header) + size);
    if (!moved) return NULL;
    moved->size = size;
    return moved + 1;
  }
  if (size <= header->size) return pointer;
  unfold_arena_block *block = arena->blocks;
  if (arena->active && block && size <= SIZE_MAX / 2 && (char *)header == (char *)(block + 1) + block->last) {
    // The newest block's last allocation grows in place when the block has room (a buffer being appended to).
    size_t rounded = (size + 15) & ~(size_t)15;
    if (rounded - header->size <= block->capacity - block->used) {
      block->used += rounded - header->size;
      header->size = rounded;
      return pointer;
    }
  }
  void *moved = arena->active ? unfold_arena_carve(arena, size) : unfold_arena_heap(size, 0);
  if (moved) memcpy(moved, pointer, header->size);
  return moved;
}

static inline void unfold_arena_free(void *pointer) {
  if (!pointer) return;
  unfold_arena_header *header = unfold_arena_header_of(pointer);
  if (header->origin == UNFOLD_ARENA_ON_HEAP) {
    header->origin = 0;
    free(header);
  }
}

// The allocator to give cmark: the arena's functions.
static inline cmark_mem *unfold_arena_allocator(void) {
  static cmark_mem allocator = {unfold_arena_calloc, unfold_arena_realloc, unfold_arena_free};
  return &allocator;
}

// Starts the span in which this thread's allocations through the allocator come from its arena.
static inline void unfold_arena_begin(void) { unfold_arena_here()->active = 1; }

// Ends the span: nothing allocated in it may be used after it. The arena's newest block (its largest) is kept,
// emptied, for the next span on this thread, and the others are freed: the chunks of one document reuse one
// block, warm in the cache, rather than each asking malloc for a block and freeing it. unfold_arena_release()
// frees the kept block when the document is parsed.
static inline void unfold_arena_end(void) {
  unfold_arena_state *arena = unfold_arena_here();
  arena->active = 0;
  unfold_arena_block *kept = arena->blocks;
  if (!kept) return;
  while (kept->next) {
    unfold_arena_block *next = kept->next->next;
    free(kept->next);
    kept->next = next;
  }
  kept->used = 0;
  kept->last = 0;
}

// Frees every block of this thread's arena, the kept one too. Call outside a span.
static inline void unfold_arena_release(void) {
  unfold_arena_state *arena = unfold_arena_here();
  while (arena->blocks) {
    unfold_arena_block *next = arena->blocks->next;
    free(arena->blocks);
    arena->blocks = next;
  }
}

// The blocks this thread's arena holds: none after unfold_arena_release() (for tests).
static inline size_t unfold_arena_block_count(void) {
  size_t count = 0;
  for (unfold_arena_block *block = unfold_arena_here()->blocks; block; block = block->next) count += 1;
  return count;
}
