package format_test

import (
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
)

func TestParseFrameRange(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want format.FrameRange
		err  string // part of the error; "" for none
	}{
		{"2:5", format.FrameRange{First: 2, Last: 5}, ""},
		{"3:3", format.FrameRange{First: 3, Last: 3}, ""},
		{"7:", format.FrameRange{First: 7}, ""},
		{":9", format.FrameRange{Last: 9}, ""},
		{"0:5", format.FrameRange{}, "the first frame is 0: frames count from 1"},
		{"-2:5", format.FrameRange{}, "the first frame is -2"},
		{"1:0", format.FrameRange{}, "the last frame is 0"},
		{"5:2", format.FrameRange{}, "the last frame (2) comes before the first (5)"},
		{"a:3", format.FrameRange{}, `the first frame "a" is not a whole number`},
		{"1:2.5", format.FrameRange{}, `the last frame "2.5" is not a whole number`},
		{"1:99999999999999999999", format.FrameRange{}, "not a whole number"},
		{"5", format.FrameRange{}, "want A:B"},
		{":", format.FrameRange{}, "want A:B"},
		{"", format.FrameRange{}, "want A:B"},
		{"1:2:3", format.FrameRange{}, "not a whole number"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := format.ParseFrameRange(tc.in)
			if tc.err == "" {
				if err != nil || got != tc.want {
					t.Fatalf("got %+v, %v; want %+v", got, err, tc.want)
				}
				if again, err := format.ParseFrameRange(got.String()); err != nil || again != got {
					t.Errorf("String %q reads back as %+v, %v", got.String(), again, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("err = %v, want it to say %q", err, tc.err)
			}
		})
	}
}

func TestFrameRangeSpan(t *testing.T) {
	for _, tc := range []struct {
		r         format.FrameRange
		n, lo, hi int
		none      bool
	}{
		{format.FrameRange{}, 4, 0, 4, false},
		{format.FrameRange{First: 2, Last: 3}, 4, 1, 3, false},
		{format.FrameRange{First: 2, Last: 30}, 4, 1, 4, false}, // stops at the end
		{format.FrameRange{Last: 1}, 4, 0, 1, false},
		{format.FrameRange{First: 4}, 4, 3, 4, false},
		{format.FrameRange{First: 5}, 4, 0, 0, true},
	} {
		lo, hi, err := tc.r.Span(tc.n)
		if (err != nil) != tc.none || lo != tc.lo || hi != tc.hi {
			t.Errorf("%+v of %d frames: [%d, %d), %v; want [%d, %d), error %v", tc.r, tc.n, lo, hi, err, tc.lo, tc.hi, tc.none)
		}
	}
	for _, r := range []format.FrameRange{{First: -1}, {Last: -1}, {First: 3, Last: 2}} {
		if r.Validate() == nil {
			t.Errorf("%+v validates", r)
		}
	}
}
