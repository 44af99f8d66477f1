/**
 * Words that carry no topic: English function words, the question framing of spec 001's intent
 * signals ("what is", "how to", "什么是", "怎么"), and Chinese particles. They are ignored on both
 * sides of keyword matching, so "What is WebTransport" and "WebTransport" cover the same terms.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  // English function words
  'a', 'an', 'the', 'and', 'or', 'but', 'nor', 'of', 'in', 'on', 'at', 'to', 'for', 'from', 'by', 'with', 'without',
  'about', 'into', 'onto', 'over', 'under', 'as', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'am',
  'do', 'does', 'did', 'doing', 'done', 'have', 'has', 'had', 'having', 'it', 'its', 'this', 'that', 'these', 'those',
  'i', 'me', 'my', 'we', 'our', 'you', 'your', 'he', 'she', 'they', 'them', 'their', 'his', 'her',
  'not', 'no', 'so', 'than', 'then', 'too', 'very', 'can', 'could', 'should', 'would', 'will', 'shall', 'may', 'might', 'must',
  'if', 'else', 'there', 'here', 'all', 'any', 'some', 'just', 'also', 'only', 'own', 'same', 'such', 'up', 'down', 'out', 'off',
  's', 't', 'd', 'll', 're', 've', 'm', 'vs', 'versus', 'via', 'per', 'etc', 'eg', 'e', 'g', 'ie',
  // English question framing
  'what', 'which', 'who', 'whom', 'whose', 'why', 'how', 'when', 'where',
  // Chinese particles, pronouns and question framing
  '的', '了', '是', '在', '和', '与', '及', '或', '或者', '跟', '把', '被', '对', '从', '向', '于', '而', '并', '也', '都', '就', '还',
  '吗', '呢', '吧', '啊', '呀', '么', '着', '过', '之', '其', '这', '那', '这个', '那个', '一个', '一些', '有', '没有',
  '我', '你', '他', '她', '它', '我们', '你们', '他们', '什么', '怎么', '怎样', '如何', '为什么', '哪些', '哪个', '哪里',
  '关于', '有关', '深入', '了解', '请问',
]);
