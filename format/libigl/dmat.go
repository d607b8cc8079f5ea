package libigl

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/meshrig/meshrig/format"
)

// Matrix is a dense matrix stored column-major, as DMAT files are.
type Matrix struct {
	Rows, Cols int
	Data       []float64 // entry (i, j) at Data[j*Rows+i]
}

// At returns entry (i, j), 0-based.
func (m *Matrix) At(i, j int) float64 { return m.Data[j*m.Rows+i] }

// maxEntries bounds the size a header may announce (2 GiB of float64), so
// a corrupt header is refused before anything is allocated for it.
const maxEntries = 1 << 28

// ReadDMAT parses a DMAT matrix: ASCII ("cols rows" then the values
// column-major) or binary (a "0 0" line then "cols rows", or one "0 cols
// rows" line, then little-endian float64 values, column-major). Errors
// are *format.ParseError: the line of a bad header, the value's row and
// column, and for binary data its byte offset; a short file wraps
// format.ErrTruncated.
func ReadDMAT(r io.Reader) (*Matrix, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	first, err := br.ReadString('\n')
	if err != nil && first == "" {
		return nil, &format.ParseError{Line: 1, Offset: -1, Err: fmt.Errorf("no header: %w", format.Truncated(err))}
	}
	headerBytes := int64(len(first))
	h, ok := naturals(first)
	if !ok || len(h) < 2 || len(h) > 3 || (len(h) == 3 && h[0] != 0) {
		return nil, &format.ParseError{Line: 1, Offset: -1, Err: fmt.Errorf("bad header %q (want \"cols rows\")", clip(first))}
	}
	bin := false
	cols, rows := h[0], h[1]
	switch {
	case len(h) == 3: // "0 cols rows"
		bin, cols, rows = true, h[1], h[2]
	case cols == 0 && rows == 0: // "0 0", then "cols rows"
		second, err := br.ReadString('\n')
		if err != nil && second == "" {
			return &Matrix{}, nil // an empty ASCII matrix
		}
		headerBytes += int64(len(second))
		h2, ok := naturals(second)
		if !ok || len(h2) != 2 {
			return nil, &format.ParseError{Line: 2, Offset: -1, Err: fmt.Errorf("bad binary header %q (want \"cols rows\")", clip(second))}
		}
		bin, cols, rows = true, h2[0], h2[1]
	}
	if cols > maxEntries || rows > maxEntries || cols*rows > maxEntries {
		return nil, &format.ParseError{Line: 1, Offset: -1, Err: fmt.Errorf("%d×%d matrix is too large", rows, cols)}
	}
	m := &Matrix{Rows: rows, Cols: cols, Data: make([]float64, 0, min(rows*cols, 1<<20))}
	if bin {
		return m, readBinary(br, m, headerBytes)
	}
	return m, readASCII(br, m)
}

// naturals parses a line of non-negative integers.
func naturals(line string) ([]int, bool) {
	f := strings.Fields(line)
	out := make([]int, len(f))
	for k, x := range f {
		v, err := strconv.Atoi(x)
		if err != nil || v < 0 {
			return nil, false
		}
		out[k] = v
	}
	return out, true
}

// clip shortens a header line for an error message.
func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return s
}

// readBinary appends m.Rows·m.Cols little-endian float64 values; data
// starts at byte offset base of the file.
func readBinary(r io.Reader, m *Matrix, base int64) error {
	n := m.Rows * m.Cols
	var b [8]byte
	for k := 0; k < n; k++ {
		off := base + 8*int64(k)
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return &format.ParseError{Offset: off, Err: fmt.Errorf("value %d of %d (row %d, column %d): %w", k+1, n, k%m.Rows+1, k/m.Rows+1, format.Truncated(err))}
		}
		x := math.Float64frombits(binary.LittleEndian.Uint64(b[:]))
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return &format.ParseError{Offset: off, Err: fmt.Errorf("value %d (row %d, column %d) is not finite", k+1, k%m.Rows+1, k/m.Rows+1)}
		}
		m.Data = append(m.Data, x)
	}
	return nil
}

// readASCII appends m.Rows·m.Cols whitespace-separated values.
func readASCII(r io.Reader, m *Matrix) error {
	n := m.Rows * m.Cols
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 1<<16)
	sc.Split(bufio.ScanWords)
	for k := 0; k < n; k++ {
		if !sc.Scan() {
			err := sc.Err()
			if err == nil {
				err = format.ErrTruncated
			}
			return &format.ParseError{Offset: -1, Err: fmt.Errorf("value %d of %d (row %d, column %d): %w", k+1, n, k%m.Rows+1, k/m.Rows+1, err)}
		}
		x, err := strconv.ParseFloat(sc.Text(), 64)
		if err != nil || x-x != 0 {
			return &format.ParseError{Offset: -1, Err: fmt.Errorf("value %d (row %d, column %d): bad number %q", k+1, k%m.Rows+1, k/m.Rows+1, clip(sc.Text()))}
		}
		m.Data = append(m.Data, x)
	}
	return nil
}

// WriteDMAT writes m as ASCII, or as binary when bin is set, in the
// layout ReadDMAT and libigl's readDMAT read.
func WriteDMAT(w io.Writer, m *Matrix, bin bool) error {
	if m.Rows < 0 || m.Cols < 0 || len(m.Data) != m.Rows*m.Cols {
		return errors.New("libigl: matrix data does not match its size")
	}
	bw := bufio.NewWriter(w)
	if bin {
		fmt.Fprintf(bw, "0 0\n%d %d\n", m.Cols, m.Rows)
		var b [8]byte
		for _, x := range m.Data {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
			bw.Write(b[:])
		}
		return bw.Flush()
	}
	fmt.Fprintf(bw, "%d %d\n", m.Cols, m.Rows)
	for _, x := range m.Data {
		bw.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
		bw.WriteByte('\n')
	}
	// bufio.Writer keeps the first error, so Flush reports any failed write.
	return bw.Flush()
}
