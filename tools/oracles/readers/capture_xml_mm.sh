#!/bin/sh
# Capture the Phoronix Test Suite's result file and MMTests' JSON exports the
# readers are tested on, with the tools themselves. The Phoronix Test Suite runs
# from its git tree (PTS; php-cli and php-xml from Debian, which no longer packages
# PTS itself), MMTests from the pinned head tree (tools/oracles/mmtests/setup_trees.sh).
# Run from the repository's root; capture.sh calls it last.
#
#     sh tools/oracles/readers/capture_xml_mm.sh [OUT=tests/data/readers] [PTS=/work/oracles/pts]
set -eu
OUT=${1:-tests/data/readers}
PTS=${2:-/work/oracles/pts}
HERE=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Phoronix Test Suite: a local test profile running Debian's sysbench (CPU events
# per second, higher is better, and the latency average, lower is better), three
# runs for each of two systems saved into one result. As root PTS keeps its state
# under /etc and /var/lib, so it runs as nobody with a home of its own.
home=$(mktemp -d)
prof="$home/.phoronix-test-suite/test-profiles/local/sysbench-system-1.0.0"
mkdir -p "$prof"
cat > "$prof/test-definition.xml" <<'XML'
<?xml version="1.0"?>
<PhoronixTestSuite>
  <TestInformation>
    <Title>Sysbench System</Title>
    <AppVersion>1.0.20</AppVersion>
    <Description>sysbench of the system (Debian's), CPU sub-test.</Description>
    <ResultScale>Events Per Second</ResultScale>
    <Proportion>HIB</Proportion>
    <TimesToRun>3</TimesToRun>
  </TestInformation>
  <TestProfile>
    <Version>1.0.0</Version>
    <SupportedPlatforms>Linux</SupportedPlatforms>
    <SoftwareType>Utility</SoftwareType>
    <TestType>System</TestType>
    <License>Free</License>
    <Status>Verified</Status>
    <EnvironmentSize>1</EnvironmentSize>
  </TestProfile>
  <TestSettings>
    <Option>
      <DisplayName>Test</DisplayName>
      <Identifier>run-test</Identifier>
      <ArgumentPostfix> run</ArgumentPostfix>
      <Menu>
        <Entry>
          <Name>CPU</Name>
          <Value>cpu</Value>
        </Entry>
      </Menu>
    </Option>
  </TestSettings>
</PhoronixTestSuite>
XML
cat > "$prof/results-definition.xml" <<'XML'
<?xml version="1.0"?>
<PhoronixTestSuite>
  <ResultsParser>
    <OutputTemplate>    events per second: $_RESULT_#</OutputTemplate>
    <ResultScale>Events Per Second</ResultScale>
  </ResultsParser>
  <ResultsParser>
    <OutputTemplate>         avg: #_RESULT_#</OutputTemplate>
    <LineHint>avg:</LineHint>
    <ResultScale>ms</ResultScale>
    <ResultProportion>LIB</ResultProportion>
    <ArgumentsDescription>Latency average</ArgumentsDescription>
  </ResultsParser>
</PhoronixTestSuite>
XML
cat > "$prof/install.sh" <<'SH'
#!/bin/sh
echo "#!/bin/sh
sysbench --threads=1 --time=1 \$@ > \$LOG_FILE 2>&1
echo \$? > ~/test-exit-status" > sysbench-system
chmod +x sysbench-system
echo 0 > ~/install-exit-status
SH
sed -e 's/<Configured>FALSE/<Configured>TRUE/; s/<UploadResults>TRUE/<UploadResults>FALSE/' \
    -e 's/<PromptForTestIdentifier>TRUE/<PromptForTestIdentifier>FALSE/; s/<PromptForTestDescription>TRUE/<PromptForTestDescription>FALSE/' \
    -e 's/<PromptSaveName>TRUE/<PromptSaveName>FALSE/; s/<NoInternetCommunication>FALSE/<NoInternetCommunication>TRUE/' \
    -e 's/<NoNetworkCommunication>FALSE/<NoNetworkCommunication>TRUE/; s/<AnonymousUsageReporting>TRUE/<AnonymousUsageReporting>FALSE/' \
    -e 's/<DynamicRunCount>TRUE/<DynamicRunCount>FALSE/; s/<SleepTimeBetweenTests>6/<SleepTimeBetweenTests>0/' \
    -e 's/<AutoLoadModules>[^<]*/<AutoLoadModules>/' -e "s|~/.phoronix-test-suite/|$home/.phoronix-test-suite/|g" \
    "$PTS/pts-core/static/user-config-defaults.xml" > "$home/.phoronix-test-suite/user-config.xml"
chown -R nobody "$home"
pts() {
    setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME="$home" \
        PTS_USER_PATH_OVERRIDE="$home/.phoronix-test-suite/" php "$PTS/pts-core/phoronix-test-suite.php" "$@" > /dev/null
}
pts batch-install local/sysbench-system-1.0.0
for id in kernel-a kernel-b; do
    export TEST_RESULTS_NAME=sysbench-system TEST_RESULTS_IDENTIFIER=$id TEST_RESULTS_DESCRIPTION="schedlab capture"
    pts batch-benchmark local/sysbench-system-1.0.0
done
cp "$home/.phoronix-test-suite/test-results/sysbench-system/composite.xml" "$OUT/pts-composite.xml"
rm -rf "$home"

# MMTests: extract-mmtests.pl --print-json of one kernel, and compare-mmtests.pl
# --json-export (zstd-compressed, as MMTests leaves it) of two, from the schbench
# and netperf-ipv4-udp-rr log trees of tests/data/mmtests/logs-head
MM="bash $HERE/../mmtests/oracle.sh head"
MMTESTS_TOOL=extract-mmtests.pl $MM -d tests/data/mmtests/logs-head -b schbench -n 6.8-vanilla --print-json \
    > "$OUT/mmtests-extract-schbench.json"
cp -r tests/data/mmtests/logs-head "$work/mm"
$MM -d "$work/mm" -b netperf-ipv4-udp-rr -n 6.8-vanilla,6.9-patched --json-export > "$OUT/mmtests-compare-netperf-ipv4-udp-rr.txt"
cp "$work/mm/netperf-ipv4-udp-rr.json.zst" "$OUT/mmtests-compare-netperf-ipv4-udp-rr.json.zst"
