package usd

import (
	"fmt"
	"strconv"
	"strings"
)

// tokKind is the kind of a usda token.
type tokKind int

const (
	tEOF    tokKind = iota
	tIdent          // a name, possibly namespaced and dotted: primvars:st, rotations.timeSamples
	tNumber         // an integer or a float
	tString         // "…" or '…', unescaped
	tPath           // <…>, without the brackets
	tAsset          // @…@ or @@@…@@@, without the at signs
	tPunct          // one of ( ) [ ] { } = , :
)

// token is one lexeme and the line it starts on.
type token struct {
	kind tokKind
	text string
	num  float64
	line int
}

// lexer splits usda text into tokens. Comments (# to the end of the
// line) are skipped; the "#usda 1.0" header is checked by the parser
// before lexing starts.
type lexer struct {
	src  string
	pos  int
	line int
	peek *token
}

// errAt is a parse error at a line.
type errAt struct {
	line int
	msg  string
}

func (e *errAt) Error() string { return e.msg }

func failf(line int, format string, args ...any) error {
	return &errAt{line, fmt.Sprintf(format, args...)}
}

// next returns the next token.
func (l *lexer) next() (token, error) {
	if l.peek != nil {
		t := *l.peek
		l.peek = nil
		return t, nil
	}
	return l.scan()
}

// look returns the next token without consuming it.
func (l *lexer) look() (token, error) {
	if l.peek == nil {
		t, err := l.scan()
		if err != nil {
			return t, err
		}
		l.peek = &t
	}
	return *l.peek, nil
}

func (l *lexer) scan() (token, error) {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == '\n':
			l.line++
			l.pos++
		case c == ' ' || c == '\t' || c == '\r':
			l.pos++
		case c == '#':
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.pos++
			}
		default:
			return l.lex(c)
		}
	}
	return token{kind: tEOF, line: l.line}, nil
}

func (l *lexer) lex(c byte) (token, error) {
	start, line := l.pos, l.line
	switch {
	case strings.IndexByte("()[]{}=,:", c) >= 0:
		l.pos++
		return token{kind: tPunct, text: string(c), line: line}, nil
	case c == '"' || c == '\'':
		s, err := l.str(c)
		return token{kind: tString, text: s, line: line}, err
	case c == '<':
		end := strings.IndexAny(l.src[l.pos:], ">\n")
		if end < 0 || l.src[l.pos+end] != '>' {
			return token{}, failf(line, "path %q has no closing '>'", clip(l.src[l.pos:]))
		}
		l.pos += end + 1
		return token{kind: tPath, text: l.src[start+1 : l.pos-1], line: line}, nil
	case c == '@':
		delim := "@"
		if strings.HasPrefix(l.src[l.pos:], "@@@") {
			delim = "@@@"
		}
		l.pos += len(delim)
		end := strings.Index(l.src[l.pos:], delim)
		if end < 0 || strings.ContainsRune(l.src[l.pos:l.pos+end], '\n') {
			return token{}, failf(line, "asset path %q has no closing %s", clip(l.src[start:]), delim)
		}
		l.pos += end + len(delim)
		return token{kind: tAsset, text: l.src[start+len(delim) : l.pos-len(delim)], line: line}, nil
	case c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9':
		l.pos++
		for l.pos < len(l.src) && strings.IndexByte("0123456789.eE+-", l.src[l.pos]) >= 0 {
			if (l.src[l.pos] == '+' || l.src[l.pos] == '-') && l.src[l.pos-1] != 'e' && l.src[l.pos-1] != 'E' {
				break
			}
			l.pos++
		}
		text := l.src[start:l.pos]
		if (text == "-" || text == "+") && strings.HasPrefix(l.src[l.pos:], "inf") {
			l.pos += 3
			text += "inf"
		}
		if l.pos < len(l.src) && isIdentStart(l.src[l.pos]) {
			return token{}, failf(line, "bad number %q", clip(l.src[start:]))
		}
		v, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return token{}, failf(line, "bad number %q", text)
		}
		return token{kind: tNumber, text: text, num: v, line: line}, nil
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		for l.pos < len(l.src) {
			d := l.src[l.pos]
			if d == '_' || d == '.' || d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' || d >= '0' && d <= '9' {
				l.pos++
				continue
			}
			// A namespace colon, not time samples' "0: …" (which follows
			// a number) nor a dictionary's.
			if d == ':' && l.pos+1 < len(l.src) && isIdentStart(l.src[l.pos+1]) {
				l.pos++
				continue
			}
			break
		}
		return token{kind: tIdent, text: l.src[start:l.pos], line: line}, nil
	}
	return token{}, failf(line, "unexpected character %q", rune(c))
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// str reads a string literal quoted by q, one line long, with backslash
// escapes.
func (l *lexer) str(q byte) (string, error) {
	line := l.line
	if strings.HasPrefix(l.src[l.pos:], strings.Repeat(string(q), 3)) {
		return "", failf(line, "triple-quoted strings are not read")
	}
	l.pos++
	var b strings.Builder
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == q:
			l.pos++
			return b.String(), nil
		case c == '\n':
			return "", failf(line, "string not closed on its line")
		case c == '\\':
			if l.pos+1 >= len(l.src) {
				return "", failf(line, "string not closed")
			}
			l.pos += 2
			switch e := l.src[l.pos-1]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'x':
				if l.pos+2 > len(l.src) {
					return "", failf(line, "bad \\x escape")
				}
				v, err := strconv.ParseUint(l.src[l.pos:l.pos+2], 16, 8)
				if err != nil {
					return "", failf(line, "bad \\x escape %q", l.src[l.pos:l.pos+2])
				}
				b.WriteByte(byte(v))
				l.pos += 2
			default:
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
			l.pos++
		}
	}
	return "", failf(line, "string not closed")
}

// clip shortens s for an error message.
func clip(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return s
}
