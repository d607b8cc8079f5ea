package collada

import (
	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
)

// meshOf reads a <geometry>: the positions of its <vertices> and the
// polygons of all its <triangles>, <polylist> and <polygons> elements, in
// document order, as indices into the positions, and their normals,
// texture coordinates and material symbols into lk (when not nil; lines
// carry no surface and are skipped). Polygons stay whole: mesh.New fans them into triangles, as
// the OBJ reader's are.
func (d *doc) meshOf(g *elem, lk *geomLooks) ([]linalg.Vec3, [][]int, error) {
	m := g.child("mesh")
	if m == nil {
		return nil, nil, g.errorf("no <mesh>: %w (convex meshes, splines and B-reps)", format.ErrUnsupported)
	}
	vs := m.child("vertices")
	if vs == nil {
		return nil, nil, m.errorf("no <vertices>")
	}
	var posURL string
	for _, in := range vs.all("input") {
		if in.get("semantic") == "POSITION" {
			posURL = in.get("source")
		}
	}
	if posURL == "" {
		return nil, nil, vs.errorf("no POSITION input")
	}
	v, n, err := d.floatSource(vs, "POSITION source", posURL, 3)
	if err != nil {
		return nil, nil, err
	}
	pos := vec3s(v[:3*n])
	var polys [][]int
	for _, p := range m.kids {
		switch p.name {
		case "triangles", "polylist", "polygons":
			if polys, err = d.primitive(p, vs, len(pos), polys, lk); err != nil {
				return nil, nil, err
			}
		case "tristrips", "trifans":
			return nil, nil, p.errorf("%w: triangle strips and fans (export triangles or polygons)", format.ErrUnsupported)
		}
	}
	return pos, polys, nil
}

// primitive appends the polygons of one <triangles>, <polylist> or
// <polygons> element to polys, checking every index against the n
// positions of vs, and its normals, texture coordinates and material to
// lk when lk is not nil.
func (d *doc) primitive(p, vs *elem, n int, polys [][]int, lk *geomLooks) ([][]int, error) {
	stride, voff := 0, -1
	for _, in := range p.all("input") {
		off, err := countAttr(in, "offset", -1)
		if err != nil {
			return nil, err
		}
		stride = max(stride, off+1)
		if in.get("semantic") != "VERTEX" {
			continue
		}
		if voff >= 0 {
			return nil, in.errorf("a second VERTEX input")
		}
		src, err := d.ref(in, "source", in.get("source"), "vertices")
		if err != nil {
			return nil, err
		}
		if src != vs {
			return nil, in.errorf("VERTEX source %q is not this mesh's <vertices>", in.get("source"))
		}
		voff = off
	}
	if voff < 0 {
		return nil, p.errorf("no VERTEX input")
	}
	np, err := countAttr(p, "count", -1)
	if err != nil {
		return nil, err
	}
	var sizes []int // corners of each polygon
	var idx []int   // stride indices per corner
	switch p.name {
	case "triangles":
		if np == 0 {
			return polys, nil
		}
		pe := p.child("p")
		if pe == nil {
			return nil, p.errorf("no <p>")
		}
		if total := countFields(pe.text); np > total/(3*stride) {
			return nil, pe.errorf("holds %d indices, too few for %s of %d inputs", total, plural(np, "triangle"), stride)
		}
		if idx, err = d.intsOf(pe, 3*np*stride); err != nil {
			return nil, err
		}
		sizes = make([]int, np)
		for k := range sizes {
			sizes[k] = 3
		}
	case "polylist":
		if np == 0 {
			return polys, nil
		}
		vc, pe := p.child("vcount"), p.child("p")
		if vc == nil || pe == nil {
			return nil, p.errorf("no <vcount> and <p>")
		}
		if sizes, err = d.intsOf(vc, np); err != nil {
			return nil, err
		}
		total := countFields(pe.text) / stride
		sum := 0
		for k, c := range sizes {
			if c < 3 {
				return nil, vc.errorf("polygon %d has %d vertices, want at least 3", k+1, c)
			}
			if sum += c; sum > total {
				return nil, pe.errorf("holds %d indices, too few for the polygons of <vcount> (%d inputs each)", countFields(pe.text), stride)
			}
		}
		if idx, err = d.intsOf(pe, sum*stride); err != nil {
			return nil, err
		}
	case "polygons":
		if ph := p.child("ph"); ph != nil {
			return nil, ph.errorf("%w: polygons with holes", format.ErrUnsupported)
		}
		ps := p.all("p")
		if len(ps) != np {
			return nil, p.errorf("holds %s, count says %d", plural(len(ps), "<p>"), np)
		}
		for _, pe := range ps {
			v, err := d.intsOf(pe, -1)
			if err != nil {
				return nil, err
			}
			if len(v)%stride != 0 || len(v)/stride < 3 {
				return nil, pe.errorf("holds %d indices: not at least 3 corners of %d inputs", len(v), stride)
			}
			sizes = append(sizes, len(v)/stride)
			idx = append(idx, v...)
		}
	}
	corners := len(idx) / stride
	flat := make([]int, corners)
	for c := range flat {
		i := idx[c*stride+voff]
		if i < 0 || i >= n {
			return nil, p.errorf("corner %d: vertex index %d out of range (the mesh has %s)", c+1, i, plural(n, "position"))
		}
		flat[c] = i
	}
	if lk != nil {
		if err := d.primitiveLooks(lk, p, vs, idx, stride, flat, len(sizes)); err != nil {
			return nil, err
		}
	}
	at := 0
	for _, c := range sizes {
		polys = append(polys, flat[at:at+c:at+c])
		at += c
	}
	return polys, nil
}
