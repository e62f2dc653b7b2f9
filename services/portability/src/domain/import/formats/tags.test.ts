import { describe, expect, it } from 'vitest';
import { finalTags, metaTags, textTags } from '@haven/kit/hashtags';

const tags = (text: string) => finalTags(textTags(text, { indentedCode: true }));

describe('textTags', () => {
  it('takes tags from prose only, never from code, URLs, link targets or colours', () => {
    const text = [
      'A #real tag and a #nested/tag.',
      '```',
      '#fenced not a tag',
      '```',
      '~~~yaml',
      'tags: #tilde',
      '~~~',
      'Some `#inline` code and ``#double `ticks` #code``.',
      'A link [see](https://example.com/#frag) and https://x.org/#bare and www.site.com/#w',
      'Wiki [[Page#Heading]] and [[#Local heading]] and [[Page#Heading|#alias]].',
      'Colours #fff #a1b2c3 #000000 and css color: #fade; <span style="color:#bad">x</span>',
      'Numbers #1 #2024 #2024-01 but #y1984 counts; escaped \\#nope and a#b and "#quoted".',
      '    #indented code after a blank line? no: after a paragraph it is prose',
      '',
      '    #indentedcode',
      '',
      '<!-- #comment --> %% #obsidiancomment %%',
      '# Heading is not a tag',
      '#+BEGIN_SRC',
      '#orgcode',
      '#+END_SRC',
      '$$',
      '#math',
      '$$',
      '#cafe is a word, #Work then #work, #WORK.',
    ].join('\n');
    expect(tags(text)).toEqual(['real', 'nested/tag', 'y1984', 'indented', 'cafe', 'Work']);
  });

  it('reads fences inside Logseq bullets and Logseq multi-word tags', () => {
    const text = [
      '- a block #logseq',
      '\t- ```clojure',
      '\t  #(inc %) #code',
      '\t  ```',
      '- #[[multi word]] tag',
    ].join('\n');
    expect(finalTags(textTags(text, { indentedCode: false }))).toEqual(['logseq', 'multi word']);
  });

  it('keeps list continuations as prose, not indented code', () => {
    expect(tags('- item\n\n    #continued in the item')).toEqual(['continued']);
  });
});

describe('metaTags and finalTags', () => {
  it('reads lists and comma or space separated strings, without # or [[ ]]', () => {
    expect(metaTags(['#daily', 'work', 2024, '{{date}}'])).toEqual(['daily', 'work']);
    expect(metaTags('one, two words, #three')).toEqual(['one', 'two words', 'three']);
    expect(metaTags('one two #three')).toEqual(['one', 'two', 'three']);
    expect(metaTags('[[Page]], x')).toEqual(['Page', 'x']);
  });

  it('keeps the first spelling, at most 20 tags of at most 40 characters', () => {
    const many = Array.from({ length: 30 }, (_, i) => `t${i}`);
    expect(finalTags(['Work', 'work', 'x'.repeat(41), ...many])).toHaveLength(20);
    expect(finalTags(['Work', 'work', 'WORK', 'x'.repeat(41), 'y'.repeat(40)])).toEqual([
      'Work',
      'y'.repeat(40),
    ]);
  });
});
