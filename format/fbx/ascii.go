package fbx

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"

	"github.com/meshrig/meshrig/format"
)

// ASCII FBX 7.x is the same node tree as the binary form written as text:
//
//	Name: value, value, … {
//		Child: *3 {
//			a: 1,2,3
//		}
//	}
//
// with ";" comments to the end of a line, strings in double quotes (a
// quote inside written "&quot;") and arrays as "*count { a: values }".
// Text carries no type codes, so DecodeASCII gives each value the one the
// binary form uses: arrays by node name (asciiArrayTypes; 'd' otherwise),
// integers as 'L' (the object model reads IDs as 'L' and takes any integer
// type elsewhere) except where a float is wanted (Default), other numbers
// as 'D', everything else as 'S'. Object names "Class::Name" become the
// binary form's "Name\x00\x01Class", and a Video's base64 Content its bytes.

// asciiArrayTypes are the array nodes whose binary type is not 'd'.
var asciiArrayTypes = map[string]byte{
	"KeyTime":            'l',
	"PolygonVertexIndex": 'i', "Edges": 'i', "UVIndex": 'i', "NormalsIndex": 'i', "ColorIndex": 'i',
	"BinormalsIndex": 'i', "TangentsIndex": 'i', "Indexes": 'i', "Materials": 'i', "Smoothing": 'i',
	"TextureId": 'i', "KeyAttrFlags": 'i', "KeyAttrRefCount": 'i',
	"KeyValueFloat": 'f', "KeyAttrDataFloat": 'f',
}

// asciiFloatScalars are the scalar nodes whose numbers are always floats.
var asciiFloatScalars = map[string]bool{"Default": true}

// asciiParser walks the text of one file.
type asciiParser struct {
	data []byte
	pos  int
}

// DecodeASCII parses an ASCII FBX 7.x file into the Document the binary
// decoder gives for the same content (Offset fields hold byte offsets into
// the text). Errors are *format.ParseError with the line and column;
// FBX versions other than 7.x (FBXHeaderExtension's FBXVersion) are
// format.ErrUnsupported.
func DecodeASCII(data []byte) (*Document, error) {
	p := &asciiParser{data: data}
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		p.pos = 3 // a UTF-8 byte order mark
	}
	nodes, err := p.nodes(0, -1)
	if err != nil {
		return nil, err
	}
	doc := &Document{Nodes: nodes}
	h := doc.Find("FBXHeaderExtension")
	v := h.Child("FBXVersion")
	if v == nil || len(v.Props) != 1 || v.Props[0].Type != 'L' {
		return nil, p.errAt(0, "ASCII FBX without FBXHeaderExtension's FBXVersion")
	}
	doc.Version = int(v.Props[0].Int)
	if doc.Version < 7000 || doc.Version >= 8000 {
		return nil, p.errAt(int(v.Offset), "ASCII FBX version %d: %w (meshrig reads 7.x)", doc.Version, format.ErrUnsupported)
	}
	if objs := doc.Find("Objects"); objs != nil {
		for _, o := range objs.Children {
			if len(o.Props) > 1 && o.Props[1].Type == 'S' {
				if i := bytes.Index(o.Props[1].Bytes, []byte("::")); i >= 0 {
					b := o.Props[1].Bytes
					o.Props[1].Bytes = append(append(append([]byte{}, b[i+2:]...), 0, 1), b[:i]...)
				}
			}
		}
	}
	return doc, nil
}

// errAt returns a ParseError at byte offset off, as line and column.
func (p *asciiParser) errAt(off int, f string, args ...any) error {
	line, col := lineCol(p.data, off)
	return &format.ParseError{Line: line, Col: col, Offset: -1, Err: fmt.Errorf(f, args...)}
}

// lineCol turns a byte offset into a 1-based line and column.
func lineCol(data []byte, off int) (int, int) {
	off = max(0, min(off, len(data)))
	line := 1 + bytes.Count(data[:off], []byte{'\n'})
	return line, off - (bytes.LastIndexByte(data[:off], '\n') + 1) + 1
}

// asciiLines turns the byte offset of a ParseError about an ASCII file's
// Document (from the object model) into its line and column.
func asciiLines(data []byte, err error) error {
	var pe *format.ParseError
	if errors.As(err, &pe) && pe.Line == 0 && pe.Offset >= 0 {
		pe.Line, pe.Col = lineCol(data, int(pe.Offset))
		pe.Offset = -1
	}
	return err
}

// skip passes spaces, tabs and carriage returns, and with lines also
// newlines and comments; a comment is skipped up to its newline anyway.
func (p *asciiParser) skip(lines bool) {
	for p.pos < len(p.data) {
		switch c := p.data[p.pos]; {
		case c == ' ' || c == '\t' || c == '\r':
			p.pos++
		case c == '\n' && lines:
			p.pos++
		case c == ';':
			for p.pos < len(p.data) && p.data[p.pos] != '\n' {
				p.pos++
			}
		default:
			return
		}
	}
}

// nodes reads node records up to the end (open < 0) or the "}" closing
// the brace at offset open.
func (p *asciiParser) nodes(depth, open int) ([]*Node, error) {
	if depth > maxDepth {
		return nil, p.errAt(p.pos, "nodes nested deeper than %d", maxDepth)
	}
	var out []*Node
	for {
		p.skip(true)
		if p.pos >= len(p.data) {
			if open >= 0 {
				l, _ := lineCol(p.data, open)
				return nil, p.errAt(p.pos, "the file ends inside the { of line %d: %w", l, format.ErrTruncated)
			}
			return out, nil
		}
		if p.data[p.pos] == '}' {
			if open < 0 {
				return nil, p.errAt(p.pos, "a } closes nothing")
			}
			p.pos++
			return out, nil
		}
		n, err := p.node(depth)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
}

// name reads an identifier followed by ":".
func (p *asciiParser) name() (string, error) {
	start := p.pos
	for p.pos < len(p.data) && isNameByte(p.data[p.pos]) {
		p.pos++
	}
	if p.pos == start {
		return "", p.errAt(start, "want a node name, found %q", p.data[start])
	}
	name := string(p.data[start:p.pos])
	if p.pos >= len(p.data) || p.data[p.pos] != ':' {
		return "", p.errAt(p.pos, "node %q: want \":\" after its name", name)
	}
	p.pos++
	return name, nil
}

func isNameByte(c byte) bool {
	return c == '_' || c == '|' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// node reads one record: name, properties on its line (continued past a
// newline after a comma) and an optional { children }.
func (p *asciiParser) node(depth int) (*Node, error) {
	n := &Node{Offset: int64(p.pos)}
	var err error
	if n.Name, err = p.name(); err != nil {
		return nil, err
	}
	p.skip(false)
	if p.pos < len(p.data) && p.data[p.pos] == ',' {
		p.pos++ // "Content: ," writes an empty first value
		p.skip(true)
	}
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		if c == '\n' || c == '{' || c == '}' {
			break
		}
		pr, err := p.value(n.Name, depth)
		if err != nil {
			return nil, err
		}
		n.Props = append(n.Props, pr)
		p.skip(false)
		if p.pos < len(p.data) && p.data[p.pos] == ',' {
			p.pos++
			p.skip(true)
			if p.pos >= len(p.data) {
				return nil, p.errAt(p.pos, "node %q: the file ends after a comma: %w", n.Name, format.ErrTruncated)
			}
			continue
		}
		if p.pos < len(p.data) && p.data[p.pos] != '\n' && p.data[p.pos] != '{' && p.data[p.pos] != '}' {
			return nil, p.errAt(p.pos, "node %q: want a comma, a newline or { after a value, found %q", n.Name, p.data[p.pos])
		}
	}
	if p.pos < len(p.data) && p.data[p.pos] == '{' {
		open := p.pos
		p.pos++
		if n.Children, err = p.nodes(depth+1, open); err != nil {
			return nil, err
		}
		n.EmptyList = len(n.Children) == 0
	}
	return n, nil
}

// value reads one property of node name: a string, a number, an array
// or a bare word.
func (p *asciiParser) value(name string, depth int) (Property, error) {
	start := p.pos
	pr := Property{Offset: int64(start)}
	switch c := p.data[p.pos]; {
	case c == '"':
		end := bytes.IndexAny(p.data[start+1:], "\"\n")
		if end < 0 || p.data[start+1+end] != '"' {
			return pr, p.errAt(start, "node %q: a string without its closing quote", name)
		}
		s := bytes.ReplaceAll(p.data[start+1:start+1+end], []byte("&quot;"), []byte{'"'})
		p.pos = start + end + 2
		pr.Type, pr.Bytes = 'S', s
		if name == "Content" {
			if raw, err := base64.StdEncoding.DecodeString(string(s)); err == nil {
				pr.Type, pr.Bytes = 'R', raw
			}
		}
		return pr, nil
	case c == '*':
		return p.array(name, depth)
	case c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9':
		tok := p.number()
		if !asciiFloatScalars[name] && isInteger(tok) {
			v, err := strconv.ParseInt(tok, 10, 64)
			if err != nil {
				return pr, p.errAt(start, "node %q: integer %q out of range", name, tok)
			}
			pr.Type, pr.Int = 'L', v
			return pr, nil
		}
		v, err := strconv.ParseFloat(tok, 64)
		if err != nil {
			return pr, p.errAt(start, "node %q: %q is not a number", name, tok)
		}
		pr.Type, pr.Float = 'D', v
		return pr, nil
	case isNameByte(c):
		for p.pos < len(p.data) && isNameByte(p.data[p.pos]) {
			p.pos++
		}
		pr.Type, pr.Bytes = 'S', append([]byte{}, p.data[start:p.pos]...)
		return pr, nil
	}
	return pr, p.errAt(start, "node %q: want a value, found %q", name, p.data[start])
}

// number reads the bytes of a number token.
func (p *asciiParser) number() string {
	start := p.pos
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		if !(c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E') {
			break
		}
		p.pos++
	}
	return string(p.data[start:p.pos])
}

func isInteger(tok string) bool {
	return !bytes.ContainsAny([]byte(tok), ".eE")
}

// array reads "*count { a: v, v, … }" into the type asciiArrayTypes
// gives node name, checking the count.
func (p *asciiParser) array(name string, depth int) (Property, error) {
	start := p.pos
	p.pos++
	tok := p.number()
	count, err := strconv.Atoi(tok)
	if err != nil || count < 0 || !isInteger(tok) {
		return Property{}, p.errAt(start, "node %q: array count %q is not a count", name, tok)
	}
	p.skip(true)
	if p.pos >= len(p.data) || p.data[p.pos] != '{' {
		return Property{}, p.errAt(p.pos, "node %q: want { after the array count", name)
	}
	open := p.pos
	p.pos++
	p.skip(true)
	typ, ok := asciiArrayTypes[name]
	if !ok {
		typ = 'd'
	}
	pr := Property{Type: typ, Offset: int64(start)}
	// The count is not trusted for allocation: a value takes 2 bytes.
	hint := min(count, (len(p.data)-p.pos)/2+1)
	switch typ {
	case 'd':
		pr.F64 = make([]float64, 0, hint)
	case 'f':
		pr.F32 = make([]float32, 0, hint)
	case 'i':
		pr.I32 = make([]int32, 0, hint)
	case 'l':
		pr.I64 = make([]int64, 0, hint)
	}
	got := 0
	if p.pos < len(p.data) && p.data[p.pos] != '}' {
		if n, err := p.name(); err != nil {
			return pr, err
		} else if n != "a" {
			return pr, p.errAt(open, "node %q: an array holds \"a:\", not %q", name, n)
		}
		for {
			p.skip(true)
			at := p.pos
			tok := p.number()
			if tok == "" {
				if p.pos < len(p.data) && p.data[p.pos] == '}' && got == 0 {
					break // "a: " with nothing
				}
				return pr, p.errAt(at, "node %q: array value %d is not a number", name, got+1)
			}
			if err := appendValue(&pr, tok); err != nil {
				return pr, p.errAt(at, "node %q: array value %d: %v", name, got+1, err)
			}
			got++
			p.skip(true)
			if p.pos < len(p.data) && p.data[p.pos] == ',' {
				p.pos++
				continue
			}
			break
		}
	}
	p.skip(true)
	if p.pos >= len(p.data) {
		l, _ := lineCol(p.data, open)
		return pr, p.errAt(p.pos, "node %q: the file ends inside the array of line %d: %w", name, l, format.ErrTruncated)
	}
	if p.data[p.pos] != '}' {
		return pr, p.errAt(p.pos, "node %q: want } after the array's values, found %q", name, p.data[p.pos])
	}
	p.pos++
	if got != count {
		return pr, p.errAt(start, "node %q: the array says %d values and holds %d", name, count, got)
	}
	return pr, nil
}

// appendValue parses tok as pr's element type and appends it.
func appendValue(pr *Property, tok string) error {
	switch pr.Type {
	case 'i':
		v, err := strconv.ParseInt(tok, 10, 32)
		if err != nil {
			return fmt.Errorf("%q is not a 32-bit integer", tok)
		}
		pr.I32 = append(pr.I32, int32(v))
	case 'l':
		v, err := strconv.ParseInt(tok, 10, 64)
		if err != nil {
			return fmt.Errorf("%q is not a 64-bit integer", tok)
		}
		pr.I64 = append(pr.I64, v)
	default:
		v, err := strconv.ParseFloat(tok, 64)
		if err != nil {
			return fmt.Errorf("%q is not a number", tok)
		}
		if pr.Type == 'f' {
			pr.F32 = append(pr.F32, float32(v))
		} else {
			pr.F64 = append(pr.F64, v)
		}
	}
	return nil
}
