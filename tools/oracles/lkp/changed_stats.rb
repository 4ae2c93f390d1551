#!/usr/bin/env ruby
# Run lkp-tests' own `__get_changed_stats` (lib/stats.rb, the compare engine of
# sbin/compare and ncompare) on each changed-stats case of tests/data/lkp/changed_stats
# (lkp's spec/fixtures/stats_changed_stats, copied unchanged), as lkp's
# spec/unit/lib/stats_spec.rb would if it found them (it looks in spec/unit/lib/
# instead), and write what it returns beside each case as <case>.json (without the
# `ttl` time stamp). Also checks each result against the case's `expected` the way the
# spec does (keys; mean_a/mean_b and non-Floats equal; Floats within 0.05), for the
# cases that have one (lkp's seven; schedlab's extra_* cases have none). The case's
# input as Ruby's YAML loader reads it (Integer vs Float kept) goes to <case>.input.json,
# which tests/it/lkp_changed_stats.rs reads.
# Usage: LKP_SRC=/path/to/lkp-tests tools/oracles/lkp/changed_stats.rb
# Needs ruby, ruby-activesupport and ruby-git; lkp-tests bbbc29c49 made the goldens.
LKP_SRC = ENV['LKP_SRC'] || abort('set LKP_SRC to an lkp-tests checkout')
require 'json'
require 'yaml'
require "#{LKP_SRC}/lib/stats"

dir = File.expand_path('../../../tests/data/lkp/changed_stats', __dir__)
failed = 0
Dir["#{dir}/*.yaml"].sort.each do |file|
  c = YAML.load_file(file)
  input = { 'matrix_a' => c['matrix_a'], 'matrix_b' => c['matrix_b'], 'options' => c['options'] || {} }
  File.write(file.sub(/\.yaml$/, '.input.json'), "#{JSON.pretty_generate(input)}\n")
  result = __get_changed_stats(c['matrix_a'], c['matrix_b'], false, c['options'] || {})
  result&.each_value { |v| v.delete('ttl') }
  File.write(file.sub(/\.yaml$/, '.json'), "#{JSON.pretty_generate(result)}\n")
  unless c.key?('expected')
    puts "#{File.basename(file, '.yaml')}: written (a case without lkp's expectation)"
    next
  end

  expected = c['expected']
  ok = if expected.nil? || expected.empty?
         result.nil? || result.empty?
       else
         result.keys.sort == expected.keys.sort && expected.all? do |k, want|
           got = result[k]
           got.keys.sort == want.keys.sort && want.all? do |f, v|
             if %w[mean_a mean_b].include?(f) || !v.is_a?(Float)
               got[f] == v
             else
               (got[f] - v).abs <= 0.05
             end
           end
         end
       end
  failed += 1 unless ok
  puts "#{File.basename(file, '.yaml')}: #{ok ? 'as expected' : 'DIFFERS from the case'}"
end
exit(failed.zero? ? 0 : 1)
