package collada

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/meshrig/meshrig/format"
)

// elem is one element of a document as read: its local name (namespaces
// are ignored: 1.4.1 and 1.5 differ in theirs only), attributes, the
// character data it holds directly (trimmed), its child elements in order
// and the line its start tag ends on, for errors.
type elem struct {
	name string
	attr []xml.Attr
	text string
	line int
	kids []*elem
	up   *elem // the parent; nil for the root
}

// wanted are the root's children the reader uses (materials, effects and
// images for the mesh's surface); the others (cameras, lights, the 1.5
// kinematics libraries…) are skipped unread, so they cost neither memory
// nor element budget.
var wanted = map[string]bool{
	"library_geometries": true, "library_controllers": true, "library_visual_scenes": true,
	"library_animations": true, "library_animation_clips": true, "scene": true,
	"library_materials": true, "library_effects": true, "library_images": true,
}

// parseXML reads a document into elements, refusing more than
// lim.elements elements or nesting deeper than maxDepth, so the size of
// the tree is bounded before it is built.
func parseXML(r io.Reader, lim limits) (*elem, error) {
	dec := xml.NewDecoder(r)
	var stack []*elem
	var bufs [][]byte // character data of each open element
	var root *elem
	count := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil, xmlError(err, dec, stack)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			line, _ := dec.InputPos()
			if len(stack) == 0 && root != nil {
				return nil, &format.ParseError{Line: line, Offset: -1, Err: fmt.Errorf("a second root element <%s>", t.Name.Local)}
			}
			if len(stack) == 1 && !wanted[t.Name.Local] {
				if err := dec.Skip(); err != nil {
					return nil, xmlError(err, dec, stack)
				}
				continue
			}
			if len(stack) >= maxDepth {
				return nil, &format.ParseError{Line: line, Offset: -1, Err: fmt.Errorf("<%s>: elements nested more than %d deep", t.Name.Local, maxDepth)}
			}
			if count++; count > lim.elements {
				return nil, &format.ParseError{Line: line, Offset: -1, Err: fmt.Errorf("more than %d XML elements: %w", lim.elements, errTooLarge)}
			}
			e := &elem{name: t.Name.Local, line: line}
			for _, a := range t.Attr {
				if a.Name.Space != "xmlns" && a.Name.Local != "xmlns" {
					e.attr = append(e.attr, xml.Attr{Name: xml.Name{Local: a.Name.Local}, Value: a.Value})
				}
			}
			if len(stack) == 0 {
				if e.name != "COLLADA" {
					return nil, &format.ParseError{Line: line, Offset: -1, Err: fmt.Errorf("not a COLLADA document: the root element is <%s>", e.name)}
				}
				root = e
			} else {
				p := stack[len(stack)-1]
				p.kids = append(p.kids, e)
				e.up = p
			}
			stack = append(stack, e)
			bufs = append(bufs, nil)
		case xml.CharData:
			if k := len(bufs) - 1; k >= 0 {
				bufs[k] = append(bufs[k], t...)
			}
		case xml.EndElement:
			k := len(stack) - 1
			stack[k].text = string(bytes.TrimSpace(bufs[k]))
			stack, bufs = stack[:k], bufs[:k]
			if k == 0 {
				// Whatever follows the root is not read.
				return root, nil
			}
		}
	}
}

// maxDepth bounds element nesting (a node tree deeper than this is not a
// character's skeleton).
const maxDepth = 256

// errTooLarge reports a document past the reader's limits.
var errTooLarge = errors.New("larger than meshrig reads")

// xmlError turns a decoder error into a ParseError at its line; a
// document that ends inside an element is truncated.
func xmlError(err error, dec *xml.Decoder, stack []*elem) error {
	line, _ := dec.InputPos()
	var se *xml.SyntaxError
	switch {
	case errors.As(err, &se) && se.Msg == "unexpected EOF", err == io.EOF:
		what := "before the root element"
		if len(stack) > 0 {
			what = fmt.Sprintf("inside <%s> (line %d)", stack[len(stack)-1].name, stack[len(stack)-1].line)
		}
		return &format.ParseError{Line: line, Offset: -1, Err: fmt.Errorf("the document ends %s: %w", what, format.ErrTruncated)}
	case errors.As(err, &se):
		return &format.ParseError{Line: se.Line, Offset: -1, Err: fmt.Errorf("XML: %s", se.Msg)}
	case errors.Is(err, errTooLarge):
		return err
	}
	return &format.ParseError{Line: line, Offset: -1, Err: fmt.Errorf("XML: %w", err)}
}

// get returns the value of attribute name, or "".
func (e *elem) get(name string) string {
	for _, a := range e.attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// has reports whether attribute name is present.
func (e *elem) has(name string) bool {
	for _, a := range e.attr {
		if a.Name.Local == name {
			return true
		}
	}
	return false
}

// child returns the first child element called name, or nil.
func (e *elem) child(name string) *elem {
	for _, k := range e.kids {
		if k.name == name {
			return k
		}
	}
	return nil
}

// all returns the child elements called name.
func (e *elem) all(name string) []*elem {
	var out []*elem
	for _, k := range e.kids {
		if k.name == name {
			out = append(out, k)
		}
	}
	return out
}

// String names the element for messages: <source id="x">, or <p>.
func (e *elem) String() string {
	var b strings.Builder
	b.WriteString("<" + e.name)
	for _, a := range []string{"id", "sid", "name", "target"} {
		if v := e.get(a); v != "" {
			fmt.Fprintf(&b, " %s=%q", a, v)
			break
		}
	}
	b.WriteString(">")
	return b.String()
}

// errorf returns an error located at e: "line N: <e id="x">: message".
// Wrap format.ErrUnsupported with %w for what meshrig does not read.
func (e *elem) errorf(msg string, args ...any) error {
	return &format.ParseError{Line: e.line, Offset: -1, Err: fmt.Errorf("%s: "+msg, append([]any{e}, args...)...)}
}
