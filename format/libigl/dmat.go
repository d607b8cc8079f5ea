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

// At returns entry (i, j).
func (m *Matrix) At(i, j int) float64 { return m.Data[j*m.Rows+i] }

// maxEntries bounds the size a header may announce (2 GiB of float64).
const maxEntries = 1 << 28

// ReadDMAT parses a DMAT matrix: ASCII ("cols rows" then the values
// column-major) or binary (a "0 0" line — or "0 cols rows" — then "cols
// rows", then little-endian float64 values, column-major).
func ReadDMAT(r io.Reader) (*Matrix, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	first, err := br.ReadString('\n')
	if err != nil && first == "" {
		return nil, &format.ParseError{Line: 1, Offset: -1, Err: fmt.Errorf("empty file: %w", format.ErrTruncated)}
	}
	f := strings.Fields(first)
	ints := func(s []string) ([]int, bool) {
		out := make([]int, len(s))
		for k, x := range s {
			v, err := strconv.Atoi(x)
			if err != nil || v < 0 {
				return nil, false
			}
			out[k] = v
		}
		return out, true
	}
	h, ok := ints(f)
	if !ok || len(h) < 2 || len(h) > 3 {
		return nil, &format.ParseError{Line: 1, Offset: -1, Err: fmt.Errorf("bad header %q", strings.TrimSpace(first))}
	}
	binary := false
	var cols, rows int
	switch {
	case len(h) == 3 && h[0] == 0: // "0 cols rows"
		binary, cols, rows = true, h[1], h[2]
	case len(h) == 2 && h[0] == 0 && h[1] == 0: // "0 0", then "cols rows"
		second, _ := br.ReadString('\n')
		h2, ok := ints(strings.Fields(second))
		if !ok || len(h2) != 2 {
			return nil, &format.ParseError{Line: 2, Offset: -1, Err: fmt.Errorf("bad binary header %q", strings.TrimSpace(second))}
		}
		binary, cols, rows = true, h2[0], h2[1]
	case len(h) == 2:
		cols, rows = h[0], h[1]
	default:
		return nil, &format.ParseError{Line: 1, Offset: -1, Err: fmt.Errorf("bad header %q", strings.TrimSpace(first))}
	}
	if cols > maxEntries || rows > maxEntries || cols*rows > maxEntries {
		return nil, &format.ParseError{Line: 1, Offset: -1, Err: fmt.Errorf("%d×%d matrix is too large", rows, cols)}
	}
	m := &Matrix{Rows: rows, Cols: cols, Data: make([]float64, 0, min(rows*cols, 1<<20))}
	n := rows * cols
	if binary {
		buf := make([]byte, 8)
		for k := 0; k < n; k++ {
			if _, err := io.ReadFull(br, buf); err != nil {
				return nil, &format.ParseError{Offset: int64(8 * k), Err: fmt.Errorf("value %d of %d: %w", k+1, n, format.ErrTruncated)}
			}
			x := math.Float64frombits(binaryLE(buf))
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, &format.ParseError{Offset: int64(8 * k), Err: fmt.Errorf("value %d is not finite", k+1)}
			}
			m.Data = append(m.Data, x)
		}
		return m, nil
	}
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	sc.Split(bufio.ScanWords)
	for k := 0; k < n; k++ {
		if !sc.Scan() {
			if err := sc.Err(); err != nil {
				return nil, err
			}
			return nil, &format.ParseError{Offset: -1, Err: fmt.Errorf("value %d of %d missing: %w", k+1, n, format.ErrTruncated)}
		}
		x, err := strconv.ParseFloat(sc.Text(), 64)
		if err != nil || x-x != 0 {
			return nil, &format.ParseError{Offset: -1, Err: fmt.Errorf("value %d: bad number %q", k+1, sc.Text())}
		}
		m.Data = append(m.Data, x)
	}
	return m, nil
}

func binaryLE(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

// WriteDMAT writes m as ASCII, or as binary when bin is set.
func WriteDMAT(w io.Writer, m *Matrix, bin bool) error {
	if len(m.Data) != m.Rows*m.Cols {
		return errors.New("matrix data does not match its size")
	}
	bw := bufio.NewWriter(w)
	if bin {
		fmt.Fprintf(bw, "0 0\n%d %d\n", m.Cols, m.Rows)
		binary.Write(bw, binary.LittleEndian, m.Data)
		return bw.Flush()
	}
	fmt.Fprintf(bw, "%d %d\n", m.Cols, m.Rows)
	for _, x := range m.Data {
		bw.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// ReadTable parses a plain whitespace-separated text matrix, one row per
// line (the .Tmat files); every row must have the same length.
func ReadTable(r io.Reader) (*Matrix, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	var rows [][]float64
	line := 0
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		row := make([]float64, len(f))
		for k, s := range f {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil || x-x != 0 {
				return nil, &format.ParseError{Line: line, Offset: -1, Err: fmt.Errorf("bad number %q", s)}
			}
			row[k] = x
		}
		if len(rows) > 0 && len(row) != len(rows[0]) {
			return nil, &format.ParseError{Line: line, Offset: -1, Err: fmt.Errorf("%d values, earlier rows have %d", len(row), len(rows[0]))}
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, &format.ParseError{Line: line, Offset: -1, Err: errors.New("empty table")}
	}
	m := &Matrix{Rows: len(rows), Cols: len(rows[0]), Data: make([]float64, len(rows)*len(rows[0]))}
	for i, row := range rows {
		for j, x := range row {
			m.Data[j*m.Rows+i] = x
		}
	}
	return m, nil
}
