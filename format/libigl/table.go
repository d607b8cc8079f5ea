package libigl

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/meshrig/meshrig/format"
)

// ReadTable parses a plain whitespace-separated text matrix, one row per
// line (the .Tmat transform files); every row must have the same length.
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
				return nil, &format.ParseError{Line: line, Col: k + 1, Offset: -1, Err: fmt.Errorf("bad number %q", s)}
			}
			row[k] = x
		}
		if len(rows) > 0 && len(row) != len(rows[0]) {
			return nil, &format.ParseError{Line: line, Offset: -1, Err: fmt.Errorf("%d values, earlier rows have %d", len(row), len(rows[0]))}
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, &format.ParseError{Line: line + 1, Offset: -1, Err: err}
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
