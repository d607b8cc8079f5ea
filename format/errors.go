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

func (e *ParseError) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %v", e.File, e.Line, e.Col, e.Err)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	case e.Offset >= 0:
		return fmt.Sprintf("%s: at byte %d: %v", e.File, e.Offset, e.Err)
	default:
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	}
}

func (e *ParseError) Unwrap() error { return e.Err }

// WithFile sets the file name of every ParseError in err's chain that has
// none, so readers that see only an io.Reader can leave the name to the
// caller.
func WithFile(err error, name string) error {
	var pe *ParseError
	if errors.As(err, &pe) {
		if pe.File == "" {
			pe.File = name
		}
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}
