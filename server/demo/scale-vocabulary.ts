/**
 * Words the scale seeder (scale-seed.ts) builds titles, tags, danmaku and comments from, in the
 * site's nine languages. Nouns and adjectives are parallel lists (the same concept at the same
 * index in every language), so a tag's names in several languages are translations of each other.
 */
export const SEED_LANGS = ['zhs', 'zht', 'yue', 'ja', 'ko', 'en', 'fr', 'id', 'vi'] as const;
export type SeedLang = (typeof SEED_LANGS)[number];

type Words = Record<SeedLang, readonly string[]>;
const parallel = (rows: ReadonlyArray<readonly string[]>): Words =>
  Object.fromEntries(SEED_LANGS.map((lang, i) => [lang, rows.map((row) => row[i])])) as unknown as Words;

export const NOUNS = parallel([
  ['猫', '貓', '貓', '猫', '고양이', 'cat', 'chat', 'kucing', 'mèo'],
  ['星空', '星空', '星空', '星空', '별하늘', 'starry sky', 'ciel étoilé', 'langit berbintang', 'bầu trời sao'],
  ['吉他', '吉他', '結他', 'ギター', '기타', 'guitar', 'guitare', 'gitar', 'đàn guitar'],
  ['钢琴', '鋼琴', '鋼琴', 'ピアノ', '피아노', 'piano', 'piano', 'piano', 'đàn piano'],
  ['游戏', '遊戲', '遊戲', 'ゲーム', '게임', 'game', 'jeu', 'permainan', 'trò chơi'],
  ['动画', '動畫', '動畫', 'アニメ', '애니메이션', 'animation', 'animation', 'animasi', 'hoạt hình'],
  ['歌', '歌', '歌', '歌', '노래', 'song', 'chanson', 'lagu', 'bài hát'],
  ['舞蹈', '舞蹈', '跳舞', 'ダンス', '춤', 'dance', 'danse', 'tarian', 'điệu nhảy'],
  ['料理', '料理', '煮食', '料理', '요리', 'cooking', 'cuisine', 'masakan', 'nấu ăn'],
  ['旅行', '旅行', '旅行', '旅', '여행', 'travel', 'voyage', 'perjalanan', 'du lịch'],
  ['夏天', '夏天', '夏天', '夏', '여름', 'summer', 'été', 'musim panas', 'mùa hè'],
  ['雨', '雨', '落雨', '雨', '비', 'rain', 'pluie', 'hujan', 'mưa'],
  ['电车', '電車', '火車', '電車', '기차', 'train', 'train', 'kereta', 'tàu hỏa'],
  ['大海', '大海', '海', '海', '바다', 'sea', 'mer', 'laut', 'biển'],
  ['城市', '城市', '城市', '街', '도시', 'city', 'ville', 'kota', 'thành phố'],
  ['祭典', '祭典', '節日', '祭り', '축제', 'festival', 'fête', 'festival', 'lễ hội'],
  ['机器人', '機器人', '機械人', 'ロボット', '로봇', 'robot', 'robot', 'robot', 'người máy'],
  ['龙', '龍', '龍', 'ドラゴン', '용', 'dragon', 'dragon', 'naga', 'rồng'],
  ['教程', '教學', '教學', '講座', '강좌', 'tutorial', 'tutoriel', 'tutorial', 'hướng dẫn'],
  ['像素画', '像素畫', '像素畫', 'ドット絵', '픽셀 아트', 'pixel art', 'pixel art', 'seni piksel', 'ảnh pixel'],
  ['月亮', '月亮', '月光', '月', '달', 'moon', 'lune', 'bulan', 'mặt trăng'],
  ['樱花', '櫻花', '櫻花', '桜', '벚꽃', 'cherry blossom', 'cerisier', 'bunga sakura', 'hoa anh đào'],
  ['咖啡', '咖啡', '咖啡', 'コーヒー', '커피', 'coffee', 'café', 'kopi', 'cà phê'],
  ['夜晚', '夜晚', '夜晚', '夜', '밤', 'night', 'nuit', 'malam', 'đêm'],
]);

export const ADJECTIVES = parallel([
  ['治愈', '治癒', '治癒', '癒し', '힐링', 'relaxing', 'apaisant', 'santai', 'thư giãn'],
  ['复古', '復古', '復古', 'レトロ', '레트로', 'retro', 'rétro', 'retro', 'cổ điển'],
  ['原创', '原創', '原創', 'オリジナル', '오리지널', 'original', 'original', 'orisinal', 'nguyên bản'],
  ['现场', '現場', '現場', 'ライブ', '라이브', 'live', 'en direct', 'langsung', 'trực tiếp'],
  ['美丽', '美麗', '靚', 'きれいな', '아름다운', 'beautiful', 'beau', 'indah', 'đẹp'],
  ['搞笑', '搞笑', '搞笑', '面白い', '웃긴', 'funny', 'drôle', 'lucu', 'hài hước'],
  ['安静', '安靜', '靜靜', '静かな', '조용한', 'quiet', 'calme', 'tenang', 'yên tĩnh'],
  ['蓝色', '藍色', '藍色', '青い', '파란', 'blue', 'bleu', 'biru', 'xanh'],
  ['小小', '小小', '細細', '小さな', '작은', 'little', 'petit', 'kecil', 'nhỏ'],
  ['无尽', '無盡', '無盡', '終わらない', '끝없는', 'endless', 'sans fin', 'tanpa akhir', 'bất tận'],
  ['孤独', '孤獨', '孤獨', '孤独な', '외로운', 'lonely', 'solitaire', 'sepi', 'cô đơn'],
  ['闪耀', '閃耀', '閃閃', '輝く', '빛나는', 'shining', 'brillant', 'bersinar', 'lấp lánh'],
]);

/** An adjective with a noun, in the language's own order. */
export function phrase(lang: SeedLang, adjective: string, noun: string): string {
  if (lang === 'zhs' || lang === 'zht' || lang === 'yue' || lang === 'ja') return `${adjective}${noun}`;
  if (lang === 'ko' || lang === 'en') return `${adjective} ${noun}`;
  return `${noun} ${adjective}`;
}

/** Title patterns: {a} an adjective, {n} and {m} nouns, {k} a number. */
export const TITLES: Record<SeedLang, readonly string[]> = {
  zhs: [
    '【{a}】{n}和{m}的日常 #{k}',
    '{n}翻唱 第{k}期',
    '用{m}画{n}的教程（{k}）',
    '{a}{n}合集 vol.{k}',
    '【{n}】{a}{m}实况 P{k}',
  ],
  zht: [
    '【{a}】{n}與{m}的日常 #{k}',
    '{n}翻唱 第{k}集',
    '用{m}畫{n}的教學（{k}）',
    '{a}{n}合輯 vol.{k}',
    '【{n}】{a}{m}實況 P{k}',
  ],
  yue: ['【{a}】{n}同{m}嘅日常 #{k}', '今日講{n} 第{k}集', '{a}{n}試玩 #{k}', '同你一齊睇{m}（{k}）'],
  ja: [
    '【{a}】{n}と{m}の日常 #{k}',
    '{n}を描いてみた その{k}',
    '{a}{n}メドレー vol.{k}',
    '【実況】{m}で遊ぶ{n} part{k}',
  ],
  ko: ['[{a}] {n}와 {m}의 일상 #{k}', '{n} 커버 {k}편', '{a} {n} 모음 vol.{k}', '{m}로 그리는 {n} {k}화'],
  en: [
    '{A} {n} and {m}, part {k}',
    'How I made a {n} in {k} days',
    '{A} {n} compilation vol. {k}',
    'Playing {m}: {n} run #{k}',
  ],
  fr: [
    '{N} et {m} {a}, partie {k}',
    'J’ai dessiné un {n} en {k} jours',
    'Compilation {n} {a} vol. {k}',
    '{N} : épisode {k}',
  ],
  id: [
    '{N} dan {m} yang {a}, bagian {k}',
    'Cara membuat {n} dalam {k} hari',
    'Kompilasi {n} {a} vol. {k}',
    'Main {m}: {n} #{k}',
  ],
  vi: ['{N} và {m} {a}, phần {k}', 'Cách vẽ {n} trong {k} ngày', 'Tuyển tập {n} {a} vol. {k}', 'Chơi {m}: {n} #{k}'],
};

/** One sentence of a description per language ({n} a noun). */
export const DESCRIPTIONS: Record<SeedLang, string> = {
  zhs: '这是关于{n}的视频，喜欢的话请点赞收藏！',
  zht: '這是關於{n}的影片，喜歡的話請按讚收藏！',
  yue: '呢條片係講{n}嘅，鍾意就俾個讚啦！',
  ja: '{n}についての動画です。よかったらマイリストお願いします！',
  ko: '{n}에 관한 영상입니다. 마음에 드시면 좋아요 부탁드려요!',
  en: 'A video about {n}. Like and save it if you enjoyed it!',
  fr: 'Une vidéo sur {n}. Aimez et enregistrez-la si elle vous a plu !',
  id: 'Video tentang {n}. Suka dan simpan kalau kamu menikmatinya!',
  vi: 'Video về {n}. Hãy thích và lưu lại nếu bạn thấy hay nhé!',
};

export const DANMAKU_WORDS = [
  '草',
  '哈哈哈哈',
  '前方高能',
  '来了来了',
  '好耶',
  '名场面',
  'wwww',
  'かわいい',
  '泪目',
  '这里是重点',
  'AWSL',
  '打卡',
  '笑死',
  '神作',
  'replay',
  '233333',
  'きたー！',
  'ここ好き',
  '노래 너무 좋아요',
  'trop beau',
  'keren banget',
  'hay quá',
  '好聽',
  '正呀',
  'first!',
  '单曲循环中',
  '感谢up主',
];

export const COMMENTS: Record<SeedLang, readonly string[]> = {
  zhs: ['太喜欢了！每天都来看一遍。', '第{k}次看，还是好感动', 'up主辛苦了，期待下一期'],
  zht: ['太喜歡了！每天都來看一遍。', '第{k}次看，還是好感動'],
  yue: ['正到爆！', '睇咗{k}次都唔厭'],
  ja: ['この動画で元気が出ました！', '{k}回目の視聴です', '続きが楽しみ'],
  ko: ['정말 좋아요!', '{k}번째 보는 중', '다음 영상 기대할게요'],
  en: ['Lovely work, so calming.', 'Watched this {k} times already', 'Can’t wait for the next one'],
  fr: ['Superbe travail, très apaisant.', 'Vu {k} fois déjà'],
  id: ['Keren banget!', 'Sudah nonton {k} kali'],
  vi: ['Hay quá!', 'Xem lần thứ {k} rồi'],
};

/** Name parts members' nicknames are made of, per language. */
export const NICKNAMES: Record<SeedLang, readonly string[]> = {
  zhs: ['星野', '小雨', '阿猫', '夜空', '像素'],
  zht: ['星河', '小雪', '阿貓', '月影'],
  yue: ['阿仔', '細路', '肥貓'],
  ja: ['ミライ', 'さくら', 'ねこ', 'ほしの'],
  ko: ['하늘', '별', '민지', '지우'],
  en: ['Sakura', 'Pixel', 'Lofi', 'Nova'],
  fr: ['Étoile', 'Lune', 'Chaton'],
  id: ['Bintang', 'Kucing', 'Hujan'],
  vi: ['Sao', 'Mèo', 'Trăng'],
};
