/** The hidden character of SPEC §1, mounted globally; her sex accepts only male or female. */
export type CharacterSex = 'male' | 'female';

export function createCharacter(name = 'Kirara') {
  let sex: CharacterSex = 'female';
  return {
    name,
    get sex(): CharacterSex {
      return sex;
    },
    set sex(value: CharacterSex) {
      if (value !== 'male' && value !== 'female') throw new TypeError('sex must be "male" or "female"');
      sex = value;
    },
    greet(): string {
      return `☆ ${name}: ${sex === 'female' ? '(｡･ω･｡)ﾉ' : '(｀･ω･´)ゞ'}`;
    },
  };
}
