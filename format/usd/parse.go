package usd

import (
	"strings"
)

// parser reads a layer from tokens.
type parser struct {
	lx    lexer
	depth int
}

// maxDepth bounds nesting, so hostile input cannot exhaust the stack.
const maxDepth = 64

// parseLayer parses usda text. It reads the subset of the syntax the
// writer uses and what resembles it: def prims (over and class are
// refused), metadata, attributes with defaults, time samples and
// connections, relationships, and dictionaries.
func parseLayer(src string) (*layer, error) {
	first, _, _ := strings.Cut(src, "\n")
	if f := strings.Fields(first); len(f) < 2 || f[0] != "#usda" || !strings.HasPrefix(f[1], "1.") {
		return nil, failf(1, "not a usda layer: the first line is %q, want \"#usda 1.0\"", clip(first))
	}
	p := &parser{lx: lexer{src: src, pos: len(first), line: 1}}
	ly := &layer{}
	t, err := p.lx.look()
	if err != nil {
		return nil, err
	}
	if t.kind == tPunct && t.text == "(" {
		if ly.meta, err = p.metadata(); err != nil {
			return nil, err
		}
	}
	for {
		t, err := p.lx.next()
		if err != nil {
			return nil, err
		}
		if t.kind == tEOF {
			return ly, nil
		}
		pr, err := p.prim(t)
		if err != nil {
			return nil, err
		}
		ly.prims = append(ly.prims, pr)
	}
}

// expect consumes a punctuation token.
func (p *parser) expect(s string) (token, error) {
	t, err := p.lx.next()
	if err != nil {
		return t, err
	}
	if t.kind != tPunct || t.text != s {
		return t, failf(t.line, "expected %q, found %s", s, describe(t))
	}
	return t, nil
}

// describe names a token for an error message.
func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "the end of the file"
	case tString:
		return "string " + quote(clip(t.text))
	case tPath:
		return "path <" + clip(t.text) + ">"
	case tAsset:
		return "asset @" + clip(t.text) + "@"
	}
	return "'" + clip(t.text) + "'"
}

// prim parses a prim whose specifier token t has been read.
func (p *parser) prim(t token) (*prim, error) {
	if t.kind != tIdent || t.text != "def" {
		if t.kind == tIdent && (t.text == "over" || t.text == "class") {
			return nil, failf(t.line, "%q prims are not read (only def)", t.text)
		}
		return nil, failf(t.line, "expected a prim (def), found %s", describe(t))
	}
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return nil, failf(t.line, "prims nested deeper than %d", maxDepth)
	}
	pr := &prim{line: t.line, props: map[string]*prop{}}
	n, err := p.lx.next()
	if err != nil {
		return nil, err
	}
	if n.kind == tIdent {
		pr.typ = n.text
		if n, err = p.lx.next(); err != nil {
			return nil, err
		}
	}
	if n.kind != tString {
		return nil, failf(n.line, "expected the prim's name in quotes, found %s", describe(n))
	}
	pr.name = n.text
	if n, err = p.lx.look(); err != nil {
		return nil, err
	}
	if n.kind == tPunct && n.text == "(" {
		if pr.meta, err = p.metadata(); err != nil {
			return nil, err
		}
	}
	if _, err := p.expect("{"); err != nil {
		return nil, err
	}
	for {
		t, err := p.lx.next()
		if err != nil {
			return nil, err
		}
		switch {
		case t.kind == tPunct && t.text == "}":
			return pr, nil
		case t.kind == tIdent && (t.text == "def" || t.text == "over" || t.text == "class"):
			c, err := p.prim(t)
			if err != nil {
				return nil, err
			}
			pr.children = append(pr.children, c)
		case t.kind == tEOF:
			return nil, failf(pr.line, "prim %q is not closed", pr.name)
		default:
			if err := p.property(pr, t); err != nil {
				return nil, err
			}
		}
	}
}

// property parses an attribute or relationship starting at t into pr.
func (p *parser) property(pr *prim, t token) error {
	line := t.line
	var err error
	uniform := false
	for t.kind == tIdent && (t.text == "uniform" || t.text == "custom" || t.text == "varying") {
		uniform = uniform || t.text == "uniform"
		if t, err = p.lx.next(); err != nil {
			return err
		}
	}
	if t.kind != tIdent {
		return failf(t.line, "expected a property, found %s", describe(t))
	}
	typ := t.text
	if typ != "rel" {
		if n, err := p.lx.look(); err != nil {
			return err
		} else if n.kind == tPunct && n.text == "[" {
			p.lx.next()
			if _, err := p.expect("]"); err != nil {
				return err
			}
			typ += "[]"
		}
	}
	nt, err := p.lx.next()
	if err != nil {
		return err
	}
	if nt.kind != tIdent {
		return failf(nt.line, "expected the name of a %s property, found %s", typ, describe(nt))
	}
	name, field := nt.text, ""
	for _, f := range []string{".timeSamples", ".connect"} {
		if strings.HasSuffix(name, f) {
			name, field = strings.TrimSuffix(name, f), f
		}
	}
	pp := pr.props[name]
	if pp == nil {
		pp = &prop{typ: typ, name: name, line: line, owner: pr, uniform: uniform}
		pr.props[name] = pp
		pr.order = append(pr.order, name)
	} else if pp.typ != typ {
		return failf(line, "property %q declared as %s and %s", name, pp.typ, typ)
	}
	n, err := p.lx.look()
	if err != nil {
		return err
	}
	if n.kind == tPunct && n.text == "=" {
		p.lx.next()
		switch field {
		case ".timeSamples":
			if pp.samples != nil {
				return failf(line, "%s: time samples given twice", name)
			}
			if pp.samples, err = p.samples(); err != nil {
				return err
			}
			if pp.samples == nil {
				pp.samples = []sample{}
			}
		case ".connect":
			v, err := p.value()
			if err != nil {
				return err
			}
			if v.kind != vPath {
				return failf(v.line, "%s.connect: expected a path", name)
			}
			pp.conn = v.str
		default:
			if pp.val != nil {
				return failf(line, "%s: value given twice", name)
			}
			v, err := p.value()
			if err != nil {
				return err
			}
			pp.val = &v
		}
		if n, err = p.lx.look(); err != nil {
			return err
		}
	}
	if n.kind == tPunct && n.text == "(" {
		if pp.meta, err = p.metadata(); err != nil {
			return err
		}
	}
	return nil
}

// samples parses "{ time: value, … }".
func (p *parser) samples() ([]sample, error) {
	if _, err := p.expect("{"); err != nil {
		return nil, err
	}
	var out []sample
	for {
		t, err := p.lx.next()
		if err != nil {
			return nil, err
		}
		if t.kind == tPunct && t.text == "}" {
			return out, nil
		}
		if t.kind != tNumber {
			return nil, failf(t.line, "expected a time code, found %s", describe(t))
		}
		if _, err := p.expect(":"); err != nil {
			return nil, err
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		out = append(out, sample{t.num, v})
		if n, err := p.lx.look(); err != nil {
			return nil, err
		} else if n.kind == tPunct && n.text == "," {
			p.lx.next()
		}
	}
}

// metadata parses "( key = value … )": keys with an optional list-op
// (prepend, append, add, delete, reorder), and a bare string as doc.
func (p *parser) metadata() (map[string]value, error) {
	if _, err := p.expect("("); err != nil {
		return nil, err
	}
	m := map[string]value{}
	for {
		t, err := p.lx.next()
		if err != nil {
			return nil, err
		}
		switch {
		case t.kind == tPunct && t.text == ")":
			return m, nil
		case t.kind == tString:
			m["doc"] = value{kind: vString, str: t.text, line: t.line}
			continue
		case t.kind == tIdent:
		default:
			return nil, failf(t.line, "expected a metadata key, found %s", describe(t))
		}
		key := t.text
		switch key {
		case "prepend", "append", "add", "delete", "reorder":
			k, err := p.lx.next()
			if err != nil {
				return nil, err
			}
			if k.kind != tIdent {
				return nil, failf(k.line, "expected a metadata key after %s, found %s", key, describe(k))
			}
			key = k.text
		}
		if _, err := p.expect("="); err != nil {
			return nil, err
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		m[key] = v
		if n, err := p.lx.look(); err != nil {
			return nil, err
		} else if n.kind == tPunct && (n.text == "," || n.text == ";") {
			p.lx.next()
		}
	}
}

// value parses one value.
func (p *parser) value() (value, error) {
	t, err := p.lx.next()
	if err != nil {
		return value{}, err
	}
	switch t.kind {
	case tNumber:
		return value{kind: vNumber, num: t.num, line: t.line}, nil
	case tString:
		return value{kind: vString, str: t.text, line: t.line}, nil
	case tIdent:
		return value{kind: vIdent, str: t.text, line: t.line}, nil
	case tPath:
		return value{kind: vPath, str: t.text, line: t.line}, nil
	case tAsset:
		return value{kind: vAsset, str: t.text, line: t.line}, nil
	case tPunct:
		switch t.text {
		case "(":
			return p.sequence(t, ")")
		case "[":
			return p.sequence(t, "]")
		case "{":
			return p.dict(t)
		}
	}
	return value{}, failf(t.line, "expected a value, found %s", describe(t))
}

// sequence parses a tuple or list opened by t, up to end. Numbers and
// numeric tuples of one size are flattened into nums as they come; the
// first element that breaks the pattern turns the value into a list of
// items.
func (p *parser) sequence(t token, end string) (value, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return value{}, failf(t.line, "values nested deeper than %d", maxDepth)
	}
	v := value{kind: vNumbers, line: t.line, width: 0, nums: []float64{}}
	for {
		n, err := p.lx.look()
		if err != nil {
			return value{}, err
		}
		if n.kind == tPunct && n.text == end {
			p.lx.next()
			break
		}
		e, err := p.value()
		if err != nil {
			return value{}, err
		}
		v.add(e)
		if n, err = p.lx.next(); err != nil {
			return value{}, err
		}
		if n.kind == tPunct && n.text == end {
			break
		}
		if n.kind != tPunct || n.text != "," {
			return value{}, failf(n.line, "expected ',' or %q, found %s", end, describe(n))
		}
	}
	if v.kind == vNumbers && v.width == 0 {
		v.width = 1
	}
	return v, nil
}

// add appends element e to the sequence v.
func (v *value) add(e value) {
	if v.kind == vNumbers {
		w := -1
		switch e.kind {
		case vNumber:
			w = 1
		case vNumbers:
			w = len(e.nums)
		}
		if w > 0 && (v.width == 0 || w == v.width) {
			v.width = w
			if e.kind == vNumber {
				v.nums = append(v.nums, e.num)
			} else {
				v.nums = append(v.nums, e.nums...)
			}
			return
		}
		// Not numeric, or another width: the elements so far become items.
		for k := 0; v.width > 0 && k < len(v.nums); k += v.width {
			if v.width == 1 {
				v.items = append(v.items, value{kind: vNumber, num: v.nums[k], line: v.line})
			} else {
				v.items = append(v.items, value{kind: vNumbers, nums: v.nums[k : k+v.width], width: 1, line: v.line})
			}
		}
		v.kind, v.nums, v.width = vList, nil, 0
	}
	v.items = append(v.items, e)
}

// dict parses "{ type key = value … }" opened by t.
func (p *parser) dict(t token) (value, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return value{}, failf(t.line, "values nested deeper than %d", maxDepth)
	}
	v := value{kind: vDict, line: t.line, dict: map[string]value{}}
	for {
		n, err := p.lx.next()
		if err != nil {
			return value{}, err
		}
		if n.kind == tPunct && n.text == "}" {
			return v, nil
		}
		if n.kind != tIdent {
			return value{}, failf(n.line, "expected a dictionary entry's type, found %s", describe(n))
		}
		if l, err := p.lx.look(); err != nil {
			return value{}, err
		} else if l.kind == tPunct && l.text == "[" {
			p.lx.next()
			if _, err := p.expect("]"); err != nil {
				return value{}, err
			}
		}
		k, err := p.lx.next()
		if err != nil {
			return value{}, err
		}
		if k.kind != tIdent && k.kind != tString {
			return value{}, failf(k.line, "expected a dictionary key, found %s", describe(k))
		}
		if _, err := p.expect("="); err != nil {
			return value{}, err
		}
		e, err := p.value()
		if err != nil {
			return value{}, err
		}
		v.dict[k.text] = e
	}
}
