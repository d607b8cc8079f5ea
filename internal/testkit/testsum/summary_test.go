package main

import (
	"bytes"
	"strings"
	"testing"
)

// A run as go test -json reports it: a package with a passing, a skipped
// and a failing test (and a subtest, which does not count apart; and a
// parent failed by its subtest, whose message must reach the summary), one
// without tests, one that does not build.
const stream = `{"Action":"start","Package":"m/a"}
{"Action":"run","Package":"m/a","Test":"TestPass"}
{"Action":"output","Package":"m/a","Test":"TestPass","Output":"=== RUN   TestPass\n"}
{"Action":"run","Package":"m/a","Test":"TestPass/sub"}
{"Action":"pass","Package":"m/a","Test":"TestPass/sub","Elapsed":0}
{"Action":"pass","Package":"m/a","Test":"TestPass","Elapsed":0.01}
{"Action":"run","Package":"m/a","Test":"TestData"}
{"Action":"output","Package":"m/a","Test":"TestData","Output":"=== RUN   TestData\n"}
{"Action":"output","Package":"m/a","Test":"TestData","Output":"    data_test.go:12: no shared data (set MESHRIG_DATA)\n"}
{"Action":"output","Package":"m/a","Test":"TestData","Output":"--- SKIP: TestData (0.00s)\n"}
{"Action":"skip","Package":"m/a","Test":"TestData","Elapsed":0}
{"Action":"run","Package":"m/a","Test":"TestBroken"}
{"Action":"output","Package":"m/a","Test":"TestBroken","Output":"    broken_test.go:5: 2 != 3\n"}
{"Action":"fail","Package":"m/a","Test":"TestBroken","Elapsed":0}
{"Action":"run","Package":"m/a","Test":"TestParent"}
{"Action":"output","Package":"m/a","Test":"TestParent","Output":"=== RUN   TestParent\n"}
{"Action":"run","Package":"m/a","Test":"TestParent/fuzz"}
{"Action":"output","Package":"m/a","Test":"TestParent/fuzz","Output":"    fuzz_test.go:9: failing input in testdata/fuzz/FuzzX/abc\n"}
{"Action":"output","Package":"m/a","Test":"TestParent/fuzz","Output":"--- FAIL: TestParent/fuzz (1.00s)\n"}
{"Action":"fail","Package":"m/a","Test":"TestParent/fuzz","Elapsed":1}
{"Action":"output","Package":"m/a","Test":"TestParent","Output":"--- FAIL: TestParent (1.00s)\n"}
{"Action":"fail","Package":"m/a","Test":"TestParent","Elapsed":1}
{"Action":"output","Package":"m/a","Output":"FAIL\n"}
{"Action":"fail","Package":"m/a","Elapsed":0.2}
{"Action":"start","Package":"m/b"}
{"Action":"output","Package":"m/b","Output":"?   \tm/b\t[no test files]\n"}
{"Action":"skip","Package":"m/b","Elapsed":0}
{"ImportPath":"m/c","Action":"build-output","Output":"# m/c\n"}
{"ImportPath":"m/c","Action":"build-output","Output":"c.go:3: undefined: x\n"}
{"ImportPath":"m/c","Action":"build-fail"}
{"Action":"start","Package":"m/c"}
{"Action":"output","Package":"m/c","Output":"FAIL\tm/c [build failed]\n"}
{"Action":"fail","Package":"m/c","Elapsed":0}
`

func TestRead(t *testing.T) {
	var w bytes.Buffer
	s, err := Read(strings.NewReader(stream), &w)
	if err != nil {
		t.Fatal(err)
	}
	if s.Packages != 3 || s.PackagesOK != 0 || s.PackagesFailed != 2 || s.NoTests != 1 {
		t.Errorf("packages: %+v", s)
	}
	if s.Run != 4 || s.Passed != 1 || s.Skipped != 1 || s.Failed != 2 || !s.Bad() {
		t.Errorf("tests: %+v", s)
	}
	if len(s.Skips) != 1 || s.Skips[0].Reason != "no shared data (set MESHRIG_DATA)" {
		t.Errorf("skips: %+v", s.Skips)
	}
	out := w.String()
	for _, want := range []string{"2 != 3", "FAIL\tm/a", "?   \tm/b\t[no test files]", "c.go:3: undefined: x", "FAIL\tm/c [build failed]", "failing input in testdata/fuzz/FuzzX/abc"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "FAIL\tm/c") != 1 {
		t.Errorf("the failed build is reported more than once:\n%s", out)
	}
	var sum bytes.Buffer
	s.Print(&sum)
	for _, want := range []string{"3 packages: 0 ok, 2 failed, 1 without tests", "4 tests run: 1 passed, 1 skipped, 2 failed", "m/a TestData: no shared data", "FAILED m/a TestBroken",
		"what failed, and what it said:\n  m/a TestBroken\n    broken_test.go:5: 2 != 3\n  m/a TestParent/fuzz\n    fuzz_test.go:9: failing input in testdata/fuzz/FuzzX/abc\nFAILED"} {
		if !strings.Contains(sum.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, sum.String())
		}
	}
}
