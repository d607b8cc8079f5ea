package collada

import (
	"fmt"
	"strings"

	"github.com/meshrig/meshrig/format"
)

// doc is a parsed document with its elements indexed by ID, and what its
// numeric arrays have cost so far.
type doc struct {
	root *elem
	ids  map[string][]*elem
	lim  limits
	// numbers counts the values parsed from arrays, against lim.numbers;
	// floats caches parsed float arrays (a clip's key times are shared
	// by the samplers of all its joints).
	numbers int
	floats  map[*elem][]float64
}

// newDoc checks the version and indexes IDs, keeping every element of a
// repeated ID (see ref).
func newDoc(root *elem, lim limits) (*doc, error) {
	v := root.get("version")
	if !strings.HasPrefix(v, "1.4.") && !strings.HasPrefix(v, "1.5.") {
		return nil, root.errorf("version %q: %w (meshrig reads COLLADA 1.4 and 1.5)", v, format.ErrUnsupported)
	}
	d := &doc{root: root, ids: map[string][]*elem{}, lim: lim, floats: map[*elem][]float64{}}
	var walk func(e *elem)
	walk = func(e *elem) {
		if id := e.get("id"); id != "" {
			d.ids[id] = append(d.ids[id], e)
		}
		for _, k := range e.kids {
			walk(k)
		}
	}
	walk(root)
	return d, nil
}

// ref resolves the URL "#id" found in from (in attribute or text what)
// to an element called one of names. IDs should be unique, but assimp
// repeats its samplers' and sources' IDs in every animation it writes:
// of several elements with the ID, the one nearest from in the tree (the
// deepest common ancestor, then the first) is meant.
func (d *doc) ref(from *elem, what, url string, names ...string) (*elem, error) {
	id, ok := strings.CutPrefix(url, "#")
	if !ok {
		if url == "" {
			return nil, from.errorf("no %s", what)
		}
		return nil, from.errorf("%s %q: %w (only references within the document, \"#id\", are read)", what, url, format.ErrUnsupported)
	}
	all := d.ids[id]
	if len(all) == 0 {
		return nil, from.errorf("%s %q: no element has that id", what, url)
	}
	e := all[0]
	if len(all) > 1 {
		best := -1
		for _, c := range all {
			if k := shared(c, from); k > best {
				e, best = c, k
			}
		}
	}
	for _, n := range names {
		if e.name == n {
			return e, nil
		}
	}
	return nil, from.errorf("%s %q is a <%s> (line %d), not a <%s>", what, url, e.name, e.line, strings.Join(names, "> or <"))
}

// shared returns the depth of the deepest common ancestor of a and b.
func shared(a, b *elem) int {
	depth := func(e *elem) int {
		n := 0
		for ; e.up != nil; e = e.up {
			n++
		}
		return n
	}
	da, db := depth(a), depth(b)
	for ; da > db; da-- {
		a = a.up
	}
	for ; db > da; db-- {
		b = b.up
	}
	for a != b {
		a, b, da = a.up, b.up, da-1
	}
	return da
}

// library returns the elements called name in every root library called
// lib, in document order.
func (d *doc) library(lib, name string) []*elem {
	var out []*elem
	for _, l := range d.root.all(lib) {
		out = append(out, l.all(name)...)
	}
	return out
}

// plural returns "1 thing" or "n things" (vertex and matrix become
// vertices and matrices).
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	if s, ok := strings.CutSuffix(thing, "ex"); ok {
		return fmt.Sprintf("%d %sices", n, s)
	}
	if s, ok := strings.CutSuffix(thing, "ix"); ok {
		return fmt.Sprintf("%d %sices", n, s)
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
