package usd

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// enc writes usda text: indented lines, numbers in their shortest form
// that reads back to the same float32 or float64, and the first write
// error kept.
type enc struct {
	w      *bufio.Writer
	indent int
	buf    []byte
	err    error
}

func newEnc(w io.Writer) *enc { return &enc{w: bufio.NewWriterSize(w, 1<<16)} }

// line writes one indented line of s.
func (e *enc) line(s string) {
	if s == "" {
		e.buf = append(e.buf[:0], '\n')
		if e.err == nil {
			_, e.err = e.w.Write(e.buf)
		}
		return
	}
	e.begin()
	e.buf = append(e.buf, s...)
	e.end()
}

// open writes s (unless "") and a line "{", and indents.
func (e *enc) open(s string) {
	if s != "" {
		e.line(s)
	}
	e.line("{")
	e.indent++
}

// close ends a block opened with open.
func (e *enc) close() {
	e.indent--
	e.line("}")
}

// begin starts an indented line in e.buf, written by end.
func (e *enc) begin() {
	e.buf = e.buf[:0]
	for i := 0; i < e.indent; i++ {
		e.buf = append(e.buf, "    "...)
	}
}

func (e *enc) end() {
	e.buf = append(e.buf, '\n')
	if e.err == nil {
		_, e.err = e.w.Write(e.buf)
	}
}

func (e *enc) flush() error {
	if e.err != nil {
		return e.err
	}
	return e.w.Flush()
}

// f32 appends v rounded to float32, as float types hold it.
func f32(b []byte, v float64) []byte {
	return strconv.AppendFloat(b, float64(float32(v)), 'g', -1, 32)
}

// f64 appends v in full.
func f64(b []byte, v float64) []byte {
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// quote returns s as a usda string literal: double quotes, with
// backslash escapes for quotes, backslashes and control characters.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatInt(int64(r)+0x100, 16)[1:])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// matrix appends a matrix4d literal of an affine map given as rotation
// rows m (column-vector convention) and translation t: USD multiplies row
// vectors on the left, so its rows are the columns of m and its last row
// holds t.
func matrix(b []byte, m [3][3]float64, t [3]float64) []byte {
	b = append(b, "( "...)
	for r := 0; r < 4; r++ {
		if r > 0 {
			b = append(b, ", "...)
		}
		b = append(b, '(')
		for c := 0; c < 4; c++ {
			if c > 0 {
				b = append(b, ", "...)
			}
			var v float64
			switch {
			case r < 3 && c < 3:
				v = m[c][r]
			case r == 3 && c < 3:
				v = t[c]
			case r == 3 && c == 3:
				v = 1
			}
			b = f64(b, v)
		}
		b = append(b, ')')
	}
	return append(b, " )"...)
}
