import { describe, expect, it } from 'vitest';
import { clusterByTheme } from './themes.ts';

describe('clusterByTheme: theme words are subjects, never stop words', () => {
  it('Chinese items that share 产品 and 仍然 are grouped under 产品, with no stop word in any label', () => {
    const items = [
      { title: '国产浏览器产品仍然在快速迭代', summary: '厂商已经推出新的智能体功能' },
      { title: '浏览器产品仍然缺少企业管理功能', summary: '目前还需要更多的权限控制' },
      { title: '智能体产品仍然面临安全质疑', summary: '研究人员表示提示注入更加常见' },
      { title: '开源引擎发布新版本', summary: '性能提升明显' },
    ];
    const { themes } = clusterByTheme(items, new Set());
    const labels = themes.map((theme) => theme.label);
    expect(labels.join(' ')).not.toMatch(/仍然|已经|目前|更加|表示/);
    expect(themes[0]?.keyword).toBe('产品');
  });

  it('English items that share "still" and "new" are grouped by their subject instead', () => {
    const items = [
      { title: 'Browser agents still struggle with checkout forms', summary: 'A new study of agents on shops' },
      { title: 'Agents still need approval to pay', summary: 'New rules for checkout agents' },
      { title: 'Sidebar assistants get new summaries', summary: 'Still in beta' },
      { title: 'Rendering engine release', summary: 'Faster layout' },
    ];
    const { themes } = clusterByTheme(items, new Set());
    expect(themes.map((theme) => theme.keyword)).not.toContain('still');
    expect(themes.map((theme) => theme.keyword)).not.toContain('new');
    expect(themes[0]?.keyword).toBe('agents');
  });
});
