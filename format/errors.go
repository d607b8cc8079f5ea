package format

import (
	"errors"
	"fmt"
)

// Sentinel errors, for errors.Is.
var (
	// ErrUnsupported reports a file or feature meshrig does not read.
	ErrUnsupported = errors.New("unsupported")
	// ErrTruncated reports a file that ends before its data does.
	ErrTruncated = errors.New("truncated file")
	// ErrOutsideFolder reports a reference (a glTF uri) that leaves the
	// folder of the file that makes it.
	ErrOutsideFolder = errors.New("reference points outside the input's folder")
	// ErrNoFrames reports an input with nothing to read.
	ErrNoFrames = errors.New("no frames found")
)

// ParseError locates an error in an input: a line (and column) for text
// formats, a byte offset for binary ones.
type ParseError struct {
	File   string
	Line   int   // 1-based; 0 when not known
	Col    int   // 1-based; 0 when not known
	Offset int64 // byte offset, for binary formats; -1 when not known
	Err    error
}

// Error reads "file:line:col: err", "file: at byte N: err" or
// "file: err"; without a file name (a reader's own error, before
// WithFile) the position comes first: "line 3: err", "at byte N: err".
func (e *ParseError) Error() string {
	var pos string
	switch {
	case e.Line > 0 && e.Col > 0:
		if e.File == "" {
			return fmt.Sprintf("line %d, column %d: %v", e.Line, e.Col, e.Err)
		}
		return fmt.Sprintf("%s:%d:%d: %v", e.File, e.Line, e.Col, e.Err)
	case e.Line > 0:
		if e.File == "" {
			return fmt.Sprintf("line %d: %v", e.Line, e.Err)
		}
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	case e.Offset >= 0:
		pos = fmt.Sprintf("at byte %d: ", e.Offset)
	}
	if e.File == "" {
		return fmt.Sprintf("%s%v", pos, e.Err)
	}
	return fmt.Sprintf("%s: %s%v", e.File, pos, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// WithFile names the file of an error a reader returned without one, so
// readers that see only an io.Reader can leave the name to the caller:
// it sets the File of the first ParseError in err's chain when that has
// none, and prefixes name to an error that does not show it (one with
// no ParseError, or whose ParseError is wrapped in a message built
// before it had a name).
func WithFile(err error, name string) error {
	var pe *ParseError
	if !errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", name, err)
	}
	if pe.File != "" {
		return err
	}
	pe.File = name
	if error(pe) == err {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}
