package usd

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strings"
)

// The crate (.usdc) encoding of a parsed layer: tokens, strings, fields
// (a token and a value representation each), field sets, the path tree
// and the specs, as the USDC file format specification lays them out
// for version 0.8.0. Sections are LZ4-framed (TfFastCompression, one
// chunk) with literal-only blocks, and integer arrays use USD's integer
// coding (a common delta, 2-bit codes, 8/16/32-bit deltas).

// Crate value types (the specification's type table).
const (
	cBool        = 1
	cInt         = 3
	cFloat       = 8
	cDouble      = 9
	cDictionary  = 31
	cString      = 10
	cToken       = 11
	cAssetPath   = 12
	cMatrix4d    = 15
	cQuatf       = 17
	cVec2f       = 20
	cVec3f       = 24
	cVec3h       = 25
	cVec4f       = 28
	cTokenListOp = 32
	cPathListOp  = 34
	cTokenVector = 41
	cSpecifier   = 42
	cVariability = 44
	cTimeSamples = 46
	cDoubleVec   = 48
)

// Spec types (SdfSpecType).
const (
	specAttribute    = 1
	specPrim         = 6
	specPseudoRoot   = 7
	specRelationship = 8
)

// crateTypes maps usda type names to crate value types.
var crateTypes = map[string]int{
	"bool": cBool, "int": cInt, "float": cFloat, "double": cDouble, "string": cString,
	"token": cToken, "asset": cAssetPath, "matrix4d": cMatrix4d, "quatf": cQuatf,
	"float2": cVec2f, "texCoord2f": cVec2f, "float3": cVec3f, "point3f": cVec3f,
	"normal3f": cVec3f, "color3f": cVec3f, "half3": cVec3h, "float4": cVec4f,
}

type crate struct {
	out    bytes.Buffer // the file: bootstrap, values, then sections
	tokens []string
	tokIdx map[string]int
	paths  *pathNode
	npaths int
	pathIx map[string]*pathNode
	fields []uint64 // token index << 0 kept apart: fieldTok, fieldRep
	ftok   []int32
	fset   []int32
	specs  [][3]int32
}

// pathNode is one path of the tree the PATHS section encodes.
type pathNode struct {
	index    int
	elem     string
	prop     bool
	children []*pathNode
}

// encodeCrate writes ly as a crate file.
func encodeCrate(w io.Writer, ly *layer) error {
	c := &crate{tokIdx: map[string]int{}, pathIx: map[string]*pathNode{}}
	c.token("primChildren") // token 0: never a property name (the path coding negates property tokens)
	c.out.Write(make([]byte, 88))
	c.paths = &pathNode{index: 0}
	c.npaths = 1
	c.pathIx["/"] = c.paths
	var kids []string
	for _, p := range ly.prims {
		kids = append(kids, p.name)
	}
	var f []int32
	for _, k := range sortedKeys(ly.meta) {
		v := ly.meta[k]
		name := k
		if k == "doc" {
			name = "documentation"
		}
		rep, err := c.metaValue(v)
		if err != nil {
			return fmt.Errorf("usdc: layer %s: %w", k, err)
		}
		if name == "documentation" {
			rep = rep&^(0xff<<48) | cString<<48
		}
		f = append(f, c.field(name, rep))
	}
	f = append(f, c.field("primChildren", c.tokenVector(kids)))
	c.spec(0, f, specPseudoRoot)
	for _, p := range ly.prims {
		if err := c.prim("", p); err != nil {
			return err
		}
	}
	return c.finish(w)
}

// token interns s.
func (c *crate) token(s string) int {
	if k, ok := c.tokIdx[s]; ok {
		return k
	}
	c.tokIdx[s] = len(c.tokens)
	c.tokens = append(c.tokens, s)
	return len(c.tokens) - 1
}

// path interns a path ("/Rig/Body", "/Rig/Body.points"), adding its
// ancestors.
func (c *crate) path(p string) int {
	if n, ok := c.pathIx[p]; ok {
		return n.index
	}
	parent, elem, prop := "/", "", false
	if i := strings.LastIndexByte(p, '.'); i > strings.LastIndexByte(p, '/') {
		parent, elem, prop = p[:i], p[i+1:], true
	} else {
		i := strings.LastIndexByte(p, '/')
		parent, elem = p[:i], p[i+1:]
		if parent == "" {
			parent = "/"
		}
	}
	c.path(parent)
	n := &pathNode{index: c.npaths, elem: elem, prop: prop}
	c.npaths++
	c.token(elem)
	pn := c.pathIx[parent]
	pn.children = append(pn.children, n)
	c.pathIx[p] = n
	return n.index
}

// field adds a field (deduplicated) and returns its index.
func (c *crate) field(name string, rep uint64) int32 {
	t := int32(c.token(name))
	for k := range c.fields {
		if c.ftok[k] == t && c.fields[k] == rep {
			return int32(k)
		}
	}
	c.ftok = append(c.ftok, t)
	c.fields = append(c.fields, rep)
	return int32(len(c.fields) - 1)
}

// spec adds a spec of the path with those fields.
func (c *crate) spec(path int, fields []int32, typ int32) {
	start := int32(len(c.fset))
	c.fset = append(c.fset, fields...)
	c.fset = append(c.fset, -1)
	c.specs = append(c.specs, [3]int32{int32(path), start, typ})
}

func rep(typ int, payload uint64, array, inlined bool) uint64 {
	r := payload&(1<<48-1) | uint64(typ)<<48
	if array {
		r |= 1 << 63
	}
	if inlined {
		r |= 1 << 62
	}
	return r
}

// at returns the offset where the next value goes.
func (c *crate) at() uint64 { return uint64(c.out.Len()) }

func (c *crate) u32(v uint32)  { c.out.Write(binary.LittleEndian.AppendUint32(nil, v)) }
func (c *crate) u64(v uint64)  { c.out.Write(binary.LittleEndian.AppendUint64(nil, v)) }
func (c *crate) f32(v float64) { c.u32(math.Float32bits(float32(v))) }
func (c *crate) f64(v float64) { c.u64(math.Float64bits(v)) }

func (c *crate) tokenVector(v []string) uint64 {
	off := c.at()
	c.u64(uint64(len(v)))
	for _, s := range v {
		c.u32(uint32(c.token(s)))
	}
	return rep(cTokenVector, off, false, false)
}

// prim encodes prim p under parent ("" for the root) and its
// properties and children.
func (c *crate) prim(parent string, p *prim) error {
	path := parent + "/" + p.name
	pi := c.path(path)
	var f []int32
	f = append(f, c.field("specifier", rep(cSpecifier, 0, false, true)))
	if p.typ != "" {
		f = append(f, c.field("typeName", rep(cToken, uint64(c.token(p.typ)), false, true)))
	}
	if v, ok := p.meta["apiSchemas"]; ok && v.kind == vList {
		off := c.at()
		c.out.WriteByte(0x20) // prepend items
		c.u64(uint64(len(v.items)))
		for _, e := range v.items {
			c.u32(uint32(c.token(e.str)))
		}
		f = append(f, c.field("apiSchemas", rep(cTokenListOp, off, false, false)))
	}
	if v, ok := p.meta["customData"]; ok && v.kind == vDict {
		r, err := c.dict(v.dict)
		if err != nil {
			return fmt.Errorf("usdc: %s customData: %w", path, err)
		}
		f = append(f, c.field("customData", r))
	}
	if len(p.order) > 0 {
		f = append(f, c.field("properties", c.tokenVector(p.order)))
	}
	if len(p.children) > 0 {
		var kids []string
		for _, k := range p.children {
			kids = append(kids, k.name)
		}
		f = append(f, c.field("primChildren", c.tokenVector(kids)))
	}
	c.spec(pi, f, specPrim)
	for _, name := range p.order {
		if err := c.property(path, p.props[name]); err != nil {
			return fmt.Errorf("usdc: %s.%s: %w", path, name, err)
		}
	}
	for _, k := range p.children {
		if err := c.prim(path, k); err != nil {
			return err
		}
	}
	return nil
}

// pathList writes an explicit path list op.
func (c *crate) pathList(paths ...string) uint64 {
	idx := make([]int, len(paths))
	for k, p := range paths {
		idx[k] = c.path(p)
	}
	off := c.at()
	c.out.WriteByte(0x01 | 0x02) // explicit, with explicit items
	c.u64(uint64(len(idx)))
	for _, i := range idx {
		c.u32(uint32(i))
	}
	return rep(cPathListOp, off, false, false)
}

// property encodes one attribute or relationship.
func (c *crate) property(prim string, a *prop) error {
	pi := c.path(prim + "." + a.name)
	var f []int32
	if a.typ == "rel" {
		if a.val != nil {
			if a.val.kind != vPath {
				return fmt.Errorf("relationship target is not a path")
			}
			f = append(f, c.field("targetPaths", c.pathList(a.val.str)))
		}
		c.spec(pi, f, specRelationship)
		return nil
	}
	f = append(f, c.field("typeName", rep(cToken, uint64(c.token(a.typ)), false, true)))
	if a.uniform {
		f = append(f, c.field("variability", rep(cVariability, 1, false, true)))
	}
	if a.val != nil {
		r, err := c.value(a.typ, a.val)
		if err != nil {
			return err
		}
		f = append(f, c.field("default", r))
	}
	if a.samples != nil {
		r, err := c.timeSamples(a.typ, a.samples)
		if err != nil {
			return err
		}
		f = append(f, c.field("timeSamples", r))
	}
	if a.conn != "" {
		f = append(f, c.field("connectionPaths", c.pathList(a.conn)))
	}
	for _, k := range sortedKeys(a.meta) {
		v := a.meta[k]
		switch {
		case v.kind == vString:
			f = append(f, c.field(k, rep(cToken, uint64(c.token(v.str)), false, true)))
		case v.kind == vNumber && v.num == math.Trunc(v.num):
			f = append(f, c.field(k, rep(cInt, uint64(uint32(int32(v.num))), false, true)))
		default:
			return fmt.Errorf("metadata %s is not written to usdc", k)
		}
	}
	c.spec(pi, f, specAttribute)
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}
